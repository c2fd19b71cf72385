import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectKube, MAX_LIST_PAGES } from '../../../src/core/kube/kubeClient.js';
import { KubeError } from '../../../src/core/kube/kubeError.js';
import { prunableObjects, uninstallObjects } from '../../../src/core/lifecycle/index.js';
import { startHostileApiServer, type HostileApiServer } from '../../support/hostile-apiserver.js';

/*
 * Issue 24 items 4 and 11: what a list answer may make the CLI do. Items are of the kind that was
 * asked for and carry the selector's labels, or they are dropped; pages end.
 */

const CP = 'linkerd.io/control-plane-ns';
const list = (items: unknown[], cont?: string) => ({ kind: 'List', apiVersion: 'v1', metadata: cont ? { continue: cont } : {}, items });

let api: HostileApiServer;
const client = () => connectKube({ kubeconfig: api.kubeconfigPath, asGroup: [] });

beforeAll(async () => {
  api = await startHostileApiServer();
});
afterAll(() => api.stop());

describe('uninstall and prune trust only the kind they asked for (issue 24 item 4)', () => {
  it('a ClusterRole list item that says it is Namespace kube-system makes no Namespace stub; unlabelled items make none', async () => {
    api.setHandler((r) =>
      r.path === '/apis/rbac.authorization.k8s.io/v1/clusterroles'
        ? list([
            { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system', labels: { [CP]: 'linkerd' } } },
            { metadata: { name: 'linkerd-heartbeat', labels: { [CP]: 'linkerd' } } },
            { metadata: { name: 'cluster-admin', labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } } },
          ])
        : undefined,
    );
    const c = await client();
    try {
      const stubs = await uninstallObjects(c);
      expect(stubs).toEqual([
        { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { creationTimestamp: null, name: 'linkerd-heartbeat' } },
      ]);
      expect(c.warnings).toEqual([
        `ignored 2 object(s) the API server put in the list of clusterroles.rbac.authorization.k8s.io that do not belong there: kube-system (listed as kind Namespace), cluster-admin (does not match ${CP})`,
      ]);
    } finally {
      c.close();
    }
  });

  it('prune: a ConfigMap list item claiming another kind, version or namespace is dropped', async () => {
    api.setHandler((r) =>
      r.path === '/api/v1/configmaps'
        ? list([
            { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system', labels: { [CP]: 'linkerd' } } },
            { apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'linkerd', labels: { [CP]: 'linkerd' } } },
            { metadata: { name: 'old', namespace: 'linkerd', labels: { [CP]: 'linkerd' } } },
          ])
        : undefined,
    );
    const c = await client();
    try {
      expect(await prunableObjects(c, [])).toEqual([
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { creationTimestamp: null, name: 'old', namespace: 'linkerd' } },
      ]);
      expect(c.warnings[0]).toMatch(/kube-system \(listed as kind Namespace\), linkerd\/x \(listed as apiVersion apps\/v1\)$/);
    } finally {
      c.close();
    }
  });
});

describe('pages end (issue 24 item 11)', () => {
  it('a repeated continue token ends the list with an error naming the resource', async () => {
    let pages = 0;
    // An unfixed client would follow the same token forever; stop it after 2,000 pages so the test can fail.
    api.setHandler((r) => (r.path === '/api/v1/pods' ? list([], ++pages < 2_000 ? 'same' : undefined) : undefined));
    const c = await client();
    try {
      const err = await c.list('pods', { labelSelector: CP, limit: 500 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(KubeError);
      expect((err as Error).message).toBe('list of pods: the server sent continue token "same" twice; refusing an endless list');
      expect(pages).toBe(2);
    } finally {
      c.close();
    }
  });

  it(`new tokens forever end after ${MAX_LIST_PAGES} pages`, async () => {
    let pages = 0;
    api.setHandler((r) => (r.path === '/apis/rbac.authorization.k8s.io/v1/clusterroles' ? list([], ++pages < 5_000 ? `t${pages}` : undefined) : undefined));
    const c = await client();
    try {
      const err = await c.list('clusterroles', { limit: 500 }).catch((e: unknown) => e);
      expect((err as Error).message).toBe('list of clusterroles.rbac.authorization.k8s.io: more than 1,000 pages; refusing an endless list');
      expect(pages).toBe(MAX_LIST_PAGES);
    } finally {
      c.close();
    }
  });

  it('a list that ends is read whole, page after page', async () => {
    api.setHandler((r) => {
      if (r.path !== '/api/v1/namespaces') return undefined;
      const n = Number(r.query.get('continue') ?? '0');
      return list([{ metadata: { name: `ns${n}` } }], n < 4 ? String(n + 1) : undefined);
    });
    const c = await client();
    try {
      expect((await c.list('namespaces', { limit: 1 })).map((n) => n.metadata?.name)).toEqual(['ns0', 'ns1', 'ns2', 'ns3', 'ns4']);
    } finally {
      c.close();
    }
  });
});

describe('other documents are checked too (issue 24 item 6)', () => {
  it('/version and discovery of the wrong shape are one-line errors', async () => {
    api.setHandler((r) =>
      r.path === '/version' ? { gitVersion: 5 } : r.path === '/api' ? { versions: 'v1' } : r.path === '/apis' ? { groups: [] } : undefined,
    );
    const c = await client();
    try {
      await expect(c.serverVersion()).rejects.toThrow(/^the API server's version is not valid: gitVersion: expected string, received number$/);
      await expect(c.apiResources()).rejects.toThrow(/^the API server's API versions is not valid: versions: expected array, received string$/);
    } finally {
      c.close();
    }
  });
});
