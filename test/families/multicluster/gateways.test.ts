import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewaysTable } from '../../../src/families/multicluster/gateways/gateways.js';
import { parseSamples } from '../../../src/families/multicluster/gateways/metrics.js';
import { type ApiServer, startApiServer } from '../../support/apiserver.js';
import { runCli } from '../../support/cli.js';

/*
 * `multicluster gateways` against the loopback API server, the service mirror's admin port served
 * by a loopback HTTP server behind the API server's port-forward.
 */

const NS = 'linkerd-multicluster';

function mirrorPod(cluster: string): object {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `controller-${cluster}-0`, namespace: NS, labels: { component: 'controller', 'mirror.linkerd.io/cluster-name': cluster } },
    spec: { containers: [{ name: 'controller', image: 'x', ports: [{ name: 'ctrl-admin', containerPort: 9999 }] }] },
    status: { phase: 'Running' },
  };
}

const lease = (cluster: string) => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: `service-mirror-write-${cluster}`, namespace: NS },
  spec: { holderIdentity: `controller-${cluster}-0` },
});

const mirror = (name: string, cluster: string) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: {
    name: `${name}-${cluster}`,
    namespace: 'default',
    labels: { 'mirror.linkerd.io/mirrored-service': 'true', 'mirror.linkerd.io/cluster-name': cluster },
  },
  spec: { ports: [{ port: 80 }] },
});

const METRICS: Record<string, string> = {
  'controller-east-0': [
    '# TYPE gateway_alive gauge',
    'gateway_alive{target_cluster_name="east"} 1',
    'gateway_enabled{target_cluster_name="east"} 1',
    'gateway_latency{target_cluster_name="east"} 12.7',
  ].join('\n'),
  'controller-west-0': ['gateway_alive{target_cluster_name="west"} 0', 'gateway_enabled{target_cluster_name="west"} 1'].join('\n'),
  // A gateway-less link: no probe worker, left out of the table.
  'controller-flat-0': 'gateway_enabled{target_cluster_name="flat"} 0',
  // Hostile: more than the metrics limit (built here, streamed, never a file).
  'controller-huge-0': `gateway_alive{target_cluster_name="huge"} 1\n${'#'.repeat(5 * 1024 * 1024)}`,
};

let server: ApiServer;
const metricsServers: http.Server[] = [];

beforeAll(async () => {
  const ports = new Map<string, number>();
  for (const [pod, text] of Object.entries(METRICS)) {
    const s = http.createServer((req, res) => res.end(req.url === '/metrics' ? text : 'no'));
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    metricsServers.push(s);
    ports.set(pod, (s.address() as AddressInfo).port);
  }
  server = await startApiServer({
    objects: [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS, labels: { 'linkerd.io/extension': 'multicluster' } } },
      ...['east', 'west', 'flat', 'huge'].flatMap((c) => [mirrorPod(c), lease(c)]),
      mirror('web', 'east'),
      mirror('db', 'east'),
      mirror('web', 'west'),
    ],
    portForward: (namespace, pod, port) => {
      const local = ports.get(pod);
      return namespace === NS && port === 9999 && local !== undefined ? { host: '127.0.0.1', port: local } : undefined;
    },
  });
});

afterAll(async () => {
  await server.stop();
  for (const s of metricsServers) await new Promise((resolve) => s.close(resolve));
});

describe('linkerd multicluster gateways', () => {
  it('prints one row per link with a gateway, from the leader service mirrors’ metrics', async () => {
    const r = await runCli(['multicluster', 'gateways', '--kubeconfig', server.kubeconfigPath]);
    // The oversized answer is refused at the limit, reported for its link, and the rest still shown.
    expect(r.stderr).toBe('Failed to get gateway status for huge: metrics of controller-huge-0: more than 4194304 bytes\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      ['CLUSTER  ALIVE    NUM_SVC      LATENCY  ', 'east     True           2         12ms  ', 'west     False          1            -  ', ''].join('\n'),
    );
  });

  it('-o json, and --cluster-name narrows to one link', async () => {
    const r = await runCli(['multicluster', 'gateways', '--cluster-name', 'east', '-o', 'json', '--kubeconfig', server.kubeconfigPath]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ clusterName: 'east', alive: true, numberOfServices: 2, latency: 12 }]);
  });

  it('without the extension namespace says how to install it', async () => {
    const empty = await startApiServer();
    try {
      const r = await runCli(['multicluster', 'gateways', '--kubeconfig', empty.kubeconfigPath]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("make sure the linkerd-multicluster extension is installed, using 'linkerd multicluster install'");
    } finally {
      await empty.stop();
    }
  });
});

describe('gateways pieces', () => {
  it('parses labels with escapes and skips comments', () => {
    expect(parseSamples('# HELP x\nx{a="b\\"c",d="e"} 2\nbad line\n')).toEqual([{ name: 'x', labels: { a: 'b"c', d: 'e' }, value: 2 }]);
  });

  it('an empty table is the header only', () => {
    expect(gatewaysTable([])).toBe('CLUSTER  ALIVE    NUM_SVC      LATENCY  \n');
  });
});
