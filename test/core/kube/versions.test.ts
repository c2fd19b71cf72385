import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectKube } from '../../../src/core/kube/kubeClient.js';
import { readLinkerdConfig } from '../../../src/core/kube/linkerdConfig.js';
import { proxyVersionOf } from '../../../src/core/kube/proxyVersion.js';
import { readVersions } from '../../../src/core/kube/versions.js';
import { kubeGlobals, startApiServer, type ApiServer } from '../../support/apiserver.js';

/** One real turn of the event loop (setImmediate is never faked here). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

const FIXTURES = ['fixtures/clusters/empty.yaml', 'fixtures/clusters/pods.yaml'];

const linkerdConfig = (values: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'linkerd-config', namespace: 'linkerd' },
  data: { values },
});

describe('readLinkerdConfig', () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = await startApiServer({ fromYaml: FIXTURES });
  });
  afterAll(() => server.stop());

  it('returns undefined when linkerd-config does not exist', async () => {
    const client = await connectKube(kubeGlobals(server));
    expect(await readLinkerdConfig(client, 'linkerd')).toBeUndefined();
  });

  it('parses the values YAML into a plain object', async () => {
    server.put(linkerdConfig('linkerdVersion: edge-26.9.1\nclusterDomain: cluster.local\nproxy:\n  image:\n    name: cr.l5d.io/linkerd/proxy\n'));
    try {
      const client = await connectKube(kubeGlobals(server));
      expect(await readLinkerdConfig(client, 'linkerd')).toEqual({
        linkerdVersion: 'edge-26.9.1',
        clusterDomain: 'cluster.local',
        proxy: { image: { name: 'cr.l5d.io/linkerd/proxy' } },
      });
    } finally {
      server.remove('v1', 'ConfigMap', 'linkerd-config', 'linkerd');
    }
  });

  it('reports values that are not YAML as a clear error', async () => {
    server.put(linkerdConfig('linkerdVersion: [unclosed'));
    try {
      const client = await connectKube(kubeGlobals(server));
      await expect(readLinkerdConfig(client, 'linkerd')).rejects.toThrow(/^failed to parse linkerd-config values: /);
    } finally {
      server.remove('v1', 'ConfigMap', 'linkerd-config', 'linkerd');
    }
  });
});

describe('readVersions (linkerd version)', () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = await startApiServer({ fromYaml: FIXTURES });
  });
  afterAll(() => server.stop());

  it('reports unavailable without linkerd-config, and proxy versions grouped by image tag', async () => {
    const v = await readVersions(kubeGlobals(server), { proxy: true });
    expect(v.server).toBe('unavailable');
    expect(v.proxies).toEqual(
      new Map([
        ['edge-26.8.5', 2],
        ['edge-26.9.1', 3],
      ]),
    );
  });

  it('reads linkerdVersion from linkerd-config and limits proxies to a namespace', async () => {
    server.put(linkerdConfig('linkerdVersion: edge-26.9.1\n'));
    try {
      server.resetRequests();
      const v = await readVersions(kubeGlobals(server), { proxy: true, namespace: 'linkerd' });
      expect(v).toEqual({ server: 'edge-26.9.1', proxies: new Map([['edge-26.9.1', 2]]) });
      const podList = server.requests.find((r) => r.path.endsWith('/pods'));
      expect(podList).toMatchObject({ path: '/api/v1/namespaces/linkerd/pods', query: 'labelSelector=linkerd.io%2Fcontrol-plane-ns%3Dlinkerd' });
      expect(await readVersions(kubeGlobals(server), { proxy: false })).toEqual({ server: 'edge-26.9.1' });
    } finally {
      server.remove('v1', 'ConfigMap', 'linkerd-config', 'linkerd');
    }
  });

  it('uses the -L namespace for both linkerd-config and the proxy label', async () => {
    const v = await readVersions(kubeGlobals(server, { linkerdNamespace: 'other' }), { proxy: true });
    expect(v).toEqual({ server: 'unavailable', serverUnavailable: 'no linkerd-config ConfigMap in namespace other', proxies: undefined });
  });

  it('never throws: unreachable cluster, bad kubeconfig, server errors', async () => {
    // …and says why, for --verbose
    expect(await readVersions(kubeGlobals(server, { kubeconfig: '/nonexistent' }), { proxy: true })).toEqual({
      server: 'unavailable',
      serverUnavailable: 'stat /nonexistent: no such file or directory',
      proxies: undefined,
    });
    server.setFault('/api/v1', { status: 500, message: 'boom' });
    try {
      expect(await readVersions(kubeGlobals(server), { proxy: true })).toEqual({ server: 'unavailable', serverUnavailable: 'boom', proxies: undefined });
    } finally {
      server.clearFaults();
    }
  });

  it('gives up on a hung server after its 5 s deadline', async () => {
    server.setFault('/api/v1', 'hang');
    server.resetRequests();
    // Fake timers for the client's deadline only; sockets and setImmediate stay real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let settled = false;
      const pending = readVersions(kubeGlobals(server), { proxy: false }).finally(() => (settled = true));
      // The deadline starts when the request is sent: wait (in real event-loop turns) until the server holds it.
      while (!server.requests.some((r) => r.path.startsWith('/api/v1'))) await turn();
      await vi.advanceTimersByTimeAsync(4_999);
      for (let i = 0; i < 5; i++) await turn();
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect((await pending).server).toBe('unavailable');
    } finally {
      vi.useRealTimers();
      server.clearFaults();
    }
  });
});

describe('proxyVersionOf', () => {
  const pod = (init: string[], containers: string[]) => ({
    spec: {
      initContainers: init.map((image) => ({ name: 'linkerd-proxy', image })),
      containers: containers.map((image, i) => ({ name: i === 0 ? 'linkerd-proxy' : 'app', image })),
    },
  });
  it('reads the tag of the linkerd-proxy image from initContainers or containers', () => {
    expect(proxyVersionOf(pod(['cr.l5d.io/linkerd/proxy:edge-26.9.1'], []))).toBe('edge-26.9.1');
    expect(proxyVersionOf(pod([], ['localhost:5000/linkerd/proxy:dev-abc']))).toBe('dev-abc');
    expect(proxyVersionOf(pod([], ['localhost:5000/linkerd/proxy']))).toBe('');
    expect(proxyVersionOf({ spec: { containers: [{ name: 'app', image: 'nginx:1' }] } })).toBe('');
  });
});
