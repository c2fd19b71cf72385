import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCrds } from '../../templates/crds/index.js';
import { startApiServer } from '../support/apiserver.js';
import { runBounded, type BoundedRun } from '../support/bounded.js';
import { startHostileApiServer, writeDenseList, type HostileApiServer } from '../support/hostile-apiserver.js';
import { servedCluster } from '../core/identity/support.js';

/*
 * Issue 24 items 4, 6, 11, 12 and 17 through the built CLI, against API servers on loopback and
 * kubeconfig files a test makes. Memory is fenced by a capped V8 heap, hangs by a bounded wait
 * (support/bounded.ts kills the run): a run that is killed, or crashes, fails its test.
 */

const CP = 'linkerd.io/control-plane-ns';
const CLUSTERROLES = '/apis/rbac.authorization.k8s.io/v1/clusterroles';
const list = (items: unknown[], cont?: string) => ({ kind: 'List', apiVersion: 'v1', metadata: cont ? { continue: cont } : {}, items });

/** A kubeconfig (JSON is YAML) for `server`, with user `u`. */
const kubeconfigOf = (server: string) => ({
  apiVersion: 'v1',
  kind: 'Config',
  'current-context': 'c',
  clusters: [{ name: 'k', cluster: { server } }],
  contexts: [{ name: 'c', context: { cluster: 'k', user: 'u' } }],
});

let api: HostileApiServer;
const kube = () => ['--kubeconfig', api.kubeconfigPath];

/** A run that ended by itself, without a crash or a stack. */
function finished(r: BoundedRun): BoundedRun {
  expect(r.killed).toBeUndefined();
  expect(r.signal).toBeNull();
  expect(r.stderr).not.toMatch(/This is a bug|heap out of memory|\n\s+at /);
  return r;
}

beforeAll(async () => {
  api = await startHostileApiServer();
});
afterAll(() => api.stop());

describe('uninstall prints stubs only of the kinds it listed (issue 24 item 4)', () => {
  it('a ClusterRole item that says `kind: Namespace, name: kube-system` never becomes a Namespace stub', async () => {
    api.setHandler((r) =>
      r.path === CLUSTERROLES
        ? list([
            { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system', labels: { [CP]: 'linkerd' } } },
            { metadata: { name: 'linkerd-heartbeat', labels: { [CP]: 'linkerd' } } },
          ])
        : undefined,
    );
    const r = finished(await runBounded(['uninstall', '--force', ...kube()]));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  creationTimestamp: null\n  name: linkerd-heartbeat\n---\n',
    );
    expect(r.stderr).toContain('kube-system (listed as kind Namespace)');
  });
});

describe('endless lists end (issue 24 item 11)', () => {
  it('a continue token sent twice ends uninstall with one line naming the resource', async () => {
    api.setHandler((r) => (r.path === CLUSTERROLES ? list([], 'again') : undefined));
    const r = finished(await runBounded(['uninstall', '--force', ...kube()], { timeoutMs: 20_000 }));
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(
      'Error: could not fetch ClusterRole resources: list of clusterroles.rbac.authorization.k8s.io: the server sent continue token "again" twice; refusing an endless list\n',
    );
  });

  it('pages with new tokens forever count against the 256 MiB response budget, in a 640 MiB heap', async () => {
    const padding = 'x'.repeat(4 << 20);
    let page = 0;
    api.setHandler((r) =>
      r.path === CLUSTERROLES ? list([{ metadata: { name: `r${page}`, labels: { [CP]: 'linkerd' } }, padding }], `t${++page}`) : undefined,
    );
    const r = finished(await runBounded(['uninstall', '--force', ...kube()], { maxOldSpaceMb: 640, maxRssMb: 1500, timeoutMs: 60_000 }));
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(
      /^Error: could not fetch ClusterRole resources: list of clusterroles\.rbac\.authorization\.k8s\.io: \d+ pages: larger than the 256 MiB limit for Kubernetes API responses read at once\n$/,
    );
    expect(page).toBeLessThan(70);
  });
});

describe('dense JSON under the byte limit (issue 24 item 12)', () => {
  it('100 MB of `{}` in a list is refused before it is built, in a 512 MiB heap', async () => {
    api.setHandler((r, res) => {
      if (r.path !== CLUSTERROLES) return undefined;
      writeDenseList(res, 100_000_000);
      return 'handled';
    });
    const r = finished(await runBounded(['uninstall', '--force', ...kube()], { maxOldSpaceMb: 512, maxRssMb: 1200, timeoutMs: 60_000 }));
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(
      /^Error: could not fetch ClusterRole resources: Get "http:\/\/127\.0\.0\.1:\d+\/apis\/rbac\.authorization\.k8s\.io\/v1\/clusterroles\?labelSelector=linkerd\.io%2Fcontrol-plane-ns&limit=500": response body: more than [\d,]+ objects and lists for its size/,
    );
  });

  it('a 50 MB linkerd-config values string: version answers `unavailable`, in a 512 MiB heap', async () => {
    const values = `linkerdVersion: x\nbomb: [${'{}, '.repeat(12_500_000)}{}]\n`;
    // Made once, before the run, so the server answers at once.
    const body = Buffer.from(
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'linkerd-config', namespace: 'linkerd' }, data: { values } }),
    );
    api.setHandler((r, res) => {
      if (r.path !== '/api/v1/namespaces/linkerd/configmaps/linkerd-config') return undefined;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
      return 'handled';
    });
    const r = finished(await runBounded(['version', '--verbose', ...kube()], { maxOldSpaceMb: 512, maxRssMb: 1200, timeoutMs: 30_000 }));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\nServer version: unavailable\n$/);
    // The values limit refuses it; on a machine too busy to read 50 MB within the 5 s deadline, the deadline does.
    expect(r.stderr).toMatch(
      /^Server version unavailable: (failed to parse linkerd-config values: values: larger than the 16 MiB limit for values files|Get "[^"]+": context deadline exceeded .*)$/m,
    );
  });
});

describe('KUBECONFIG files (issue 24 item 17)', () => {
  const fifo = () => {
    const p = path.join(api.dir, `fifo-${Math.random().toString(36).slice(2)}`);
    execFileSync('mkfifo', [p]);
    return p;
  };

  it('a FIFO nobody writes to reads as empty: version and rotate status answer instead of hanging', async () => {
    const KUBECONFIG = fifo();
    const version = finished(await runBounded(['version'], { env: { KUBECONFIG }, timeoutMs: 20_000 }));
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/\nServer version: unavailable\n$/);
    const status = finished(await runBounded(['identity', 'rotate', 'status'], { env: { KUBECONFIG }, timeoutMs: 20_000 }));
    expect(status.code).toBe(1);
    expect(status.stderr).toMatch(/^Error: invalid configuration: no configuration has been provided/);
  });

  it('a FIFO whose writer never finishes is an i/o timeout after 5 s', async () => {
    const KUBECONFIG = fifo();
    // Held open for reading and writing, so the CLI sees a writer that sends nothing.
    const held = fs.openSync(KUBECONFIG, 'r+');
    try {
      const r = finished(await runBounded(['version', '--verbose'], { env: { KUBECONFIG }, timeoutMs: 25_000 }));
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(
        `Server version unavailable: error loading config file "${KUBECONFIG}": read ${KUBECONFIG}: i/o timeout (no end of input within 5000 ms)`,
      );
    } finally {
      fs.closeSync(held);
    }
  });

  it('the same 1 MiB file listed 300 times is read once, in a 128 MiB heap', async () => {
    const file = path.join(api.dir, 'padded');
    const user = { name: 'padding', user: { token: 'A'.repeat(1 << 20) } };
    fs.writeFileSync(file, JSON.stringify({ ...kubeconfigOf(api.url), users: [{ name: 'u', user: { token: 't' } }, user] }));
    const KUBECONFIG = Array<string>(300).fill(file).join(path.delimiter);
    const r = finished(await runBounded(['version'], { env: { KUBECONFIG }, maxOldSpaceMb: 128, timeoutMs: 60_000 }));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\nServer version: unavailable\n$/);
  });
});

describe('objects of the wrong shape are one line naming them (issue 24 item 6)', () => {
  it('install: a Node whose containerRuntimeVersion is a number', async () => {
    const server = await startApiServer({
      fromYaml: 'fixtures/clusters/empty.yaml',
      objects: [
        ...renderCrds({ namespace: 'linkerd', cliVersion: 'edge-26.9.1', chartVersion: '2026.9.1', installGatewayAPI: true }),
        { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, status: { nodeInfo: { containerRuntimeVersion: 5 } } },
      ],
    });
    try {
      const r = finished(await runBounded(['install', '--kubeconfig', server.kubeconfigPath]));
      expect([r.code, r.stdout]).toEqual([1, '']);
      expect(r.stderr).toBe(
        'Error: Node n1 from the API server is not a valid Node: status.nodeInfo.containerRuntimeVersion: expected string, received number\n',
      );
    } finally {
      await server.stop();
    }
  });

  it('identity rotate status: a meshed Pod whose containers are [null]', async () => {
    const { server } = await servedCluster();
    try {
      server.put({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'emojivoto', labels: { [CP]: 'linkerd' } }, spec: { containers: [null] } });
      const r = finished(await runBounded(['identity', 'rotate', 'status', '--kubeconfig', server.kubeconfigPath]));
      expect([r.code, r.stdout]).toEqual([1, '']);
      expect(r.stderr).toBe('Error: Pod emojivoto/p from the API server is not a valid Pod: spec.containers[0]: expected object, received null\n');
    } finally {
      await server.stop();
    }
  });
});
