import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterSnapshot } from '../../../src/core/kube/clusterSnapshot.js';
import { connectKube, type KubeClient } from '../../../src/core/kube/kubeClient.js';
import { kubeGlobals, startApiServer, type ApiServer } from '../../support/apiserver.js';

describe('ClusterSnapshot', () => {
  let server: ApiServer;
  let client: KubeClient;
  beforeAll(async () => {
    server = await startApiServer({ fromYaml: ['fixtures/clusters/empty.yaml', 'fixtures/clusters/pods.yaml'] });
    client = await connectKube(kubeGlobals(server));
  });
  afterAll(async () => {
    client.close();
    await server.stop();
  });

  it('answers many concurrent readers of N pods with one LIST', async () => {
    server.resetRequests();
    const snap = new ClusterSnapshot(client);
    const results = await Promise.all([
      snap.list('pods'),
      snap.list('pods', { labelSelector: 'linkerd.io/control-plane-ns=linkerd' }),
      snap.list('pods', { namespace: 'emojivoto' }),
      snap.list('pods', { fieldSelector: 'status.phase=Running', namespace: 'linkerd' }),
      snap.find('pods', 'curl', 'default'),
      snap.find('pods', 'nope', 'default'),
    ]);
    expect(results[0]).toHaveLength(8);
    expect(results[1]).toHaveLength(5);
    expect(results[2]).toHaveLength(3);
    expect(results[3]).toHaveLength(2);
    expect((results[4] as { metadata?: { name?: string } }).metadata?.name).toBe('curl');
    expect(results[5]).toBeUndefined();
    expect(server.requestCount()).toBe(1);
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/api/v1/pods', query: '' });
  });

  it('selectOnServer: asks the server for the selection alone, unless a LIST of everything is cached', async () => {
    server.resetRequests();
    const snap = new ClusterSnapshot(client);
    const sel = { labelSelector: 'linkerd.io/control-plane-ns=linkerd', selectOnServer: true };
    expect(await snap.list('pods', sel)).toHaveLength(5);
    expect(await snap.list('pods', sel)).toHaveLength(5);
    expect(server.requestCount()).toBe(1);
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/api/v1/pods', query: 'labelSelector=linkerd.io%2Fcontrol-plane-ns%3Dlinkerd' });
    server.resetRequests();
    const warm = new ClusterSnapshot(client);
    await warm.list('pods');
    expect(await warm.list('pods', sel)).toHaveLength(5);
    expect(server.requestCount()).toBe(1);
    expect(server.requests[0]).toMatchObject({ path: '/api/v1/pods', query: '' });
  });

  it('does one LIST per (resource, namespace scope) and serves namespaces from an all-namespaces LIST', async () => {
    server.resetRequests();
    const snap = new ClusterSnapshot(client);
    await snap.list('configmaps', { namespace: 'kube-system' });
    await snap.find('configmaps', 'extension-apiserver-authentication', 'kube-system');
    await snap.list('configmaps');
    await snap.list('configmaps', { namespace: 'default' });
    await snap.list('nodes');
    await snap.find('nodes', 'test-control-plane', 'ignored-for-cluster-scoped');
    await snap.serverVersion();
    await snap.serverVersion();
    expect(server.requests.map((r) => r.path)).toEqual(['/api/v1/namespaces/kube-system/configmaps', '/api/v1/configmaps', '/api/v1/nodes', '/version']);
  });

  it('does not cache failures, and invalidate() forces a fresh LIST', async () => {
    const snap = new ClusterSnapshot(client);
    server.resetRequests();
    server.setFault('/api/v1/namespaces', { status: 500, message: 'boom' }, { times: 1 });
    await expect(snap.list('namespaces')).rejects.toMatchObject({ kind: 'server', message: 'boom' });
    expect(await snap.list('namespaces')).toHaveLength(7);
    await snap.list('namespaces');
    snap.invalidate('namespaces');
    await snap.list('namespaces');
    expect(server.requestCount()).toBe(3);
  });
});
