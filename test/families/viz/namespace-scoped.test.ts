import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer, type StoredObject, type TapCall } from '../../support/apiserver.js';
import { runCli } from '../../support/cli.js';
import { eventFrames, framesServer, sampleEvents, vizNamespace } from '../../support/tap-events.js';

/*
 * A namespace-scoped user (linkerd/linkerd2#13169): alice may not list namespaces, so viz cannot be
 * found by its label. Every viz data command then looks for it in `linkerd-viz`, as stat, edges,
 * routes and authz do, instead of failing with `namespaces is forbidden`.
 */

const linkerdConfig: StoredObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'linkerd-config', namespace: 'linkerd' },
  data: { values: 'clusterDomain: cluster.local\n' },
};

const ALICE_MAY_NOT_LIST = [{ verb: 'list', resource: 'namespaces', user: 'alice' }];
const VALIDATE = 'Validate the install with: linkerd viz check\n';

describe('viz tap and profile as a user who may not list namespaces', () => {
  let server: ApiServer;
  let bare: ApiServer;
  const calls: TapCall[] = [];
  beforeAll(async () => {
    [server, bare] = await Promise.all([startApiServer({ objects: [vizNamespace, linkerdConfig] }), startApiServer()]);
  });
  afterAll(() => Promise.all([server.stop(), bare.stop()]));
  beforeEach(() => {
    calls.length = 0;
    server.setDenials(ALICE_MAY_NOT_LIST);
    bare.setDenials(ALICE_MAY_NOT_LIST);
  });

  it('tap finds viz in linkerd-viz and taps as alice', async () => {
    server.setTap(framesServer(eventFrames(sampleEvents().slice(0, 1)), calls));
    const r = await runCli(['viz', 'tap', 'deploy/web', '-n', 'emojivoto', '--as', 'alice', '--kubeconfig', server.kubeconfigPath]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/^req id=7:3 proxy=out /);
    expect([calls[0]?.resourcePath, calls[0]?.user]).toEqual(['namespaces/emojivoto/deployments/web/tap', 'alice']);
    const refused = server.requests.find((q) => q.path === '/api/v1/namespaces' && q.user === 'alice');
    expect(refused).toBeDefined();
  });

  it('tap reads --viz-namespace, the viz persistent flag', async () => {
    server.setTap(framesServer([], calls));
    const r = await runCli(['viz', 'tap', 'deploy/web', '--viz-namespace', 'linkerd-viz', '--kubeconfig', server.kubeconfigPath]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(server.requests.some((q) => q.method === 'GET' && q.path === '/api/v1/namespaces/linkerd-viz')).toBe(true);
    const wrong = await runCli(['viz', 'tap', 'deploy/web', '--viz-namespace', 'elsewhere', '--kubeconfig', server.kubeconfigPath]);
    expect([wrong.code, wrong.stderr]).toEqual([1, `Cannot connect to Linkerd Viz: namespaces "elsewhere" not found\n${VALIDATE}`]);
  });

  it('viz missing from linkerd-viz too is a Linkerd Viz failure, not a Kubernetes one', async () => {
    const r = await runCli(['viz', 'tap', 'deploy/web', '--as', 'alice', '--kubeconfig', bare.kubeconfigPath]);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(`Cannot connect to Linkerd Viz: namespace with label "linkerd.io/extension: viz" not found\n${VALIDATE}`);
  });

  it('profile --tap builds the profile as alice', async () => {
    server.setTap(
      framesServer(
        eventFrames([
          {
            proxyDirection: 1,
            http: { kind: 'requestInit', id: { base: 1, stream: 1n }, method: { registered: 0 }, authority: 'web-svc', path: '/api/list', headers: [] },
          },
        ]),
        calls,
      ),
    );
    const r = await runCli(['viz', 'profile', 'web-svc', '-n', 'emojivoto', '--tap', 'deploy/web', '--as', 'alice', '--kubeconfig', server.kubeconfigPath]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain('name: GET /api/list');
    expect(calls[0]?.user).toBe('alice');
  });
});

describe('viz stat-inbound as a user who may not list namespaces', () => {
  let server: ApiServer;
  let prometheus: http.Server;
  const queries: string[] = [];
  beforeAll(async () => {
    prometheus = http.createServer((req, res) => {
      queries.push(req.url ?? '');
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ status: 'success', data: { resultType: 'vector', result: [] } }));
    });
    await new Promise<void>((resolve) => prometheus.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(prometheus.address() as AddressInfo).port}`;
    const ns: StoredObject = {
      ...vizNamespace,
      metadata: { ...vizNamespace.metadata, annotations: { 'viz.linkerd.io/external-prometheus': url } },
    };
    server = await startApiServer({ objects: [ns], denials: ALICE_MAY_NOT_LIST });
  });
  afterAll(async () => {
    await server.stop();
    await new Promise<void>((resolve) => prometheus.close(() => resolve()));
  });

  it('reads the linkerd-viz namespace it may get, and queries its external Prometheus', async () => {
    for (const cmd of ['stat-inbound', 'stat-outbound']) {
      queries.length = 0;
      const r = await runCli(['viz', cmd, 'deploy/web', '-n', 'emojivoto', '--as', 'alice', '--kubeconfig', server.kubeconfigPath]);
      expect([cmd, r.code, r.stderr]).toEqual([cmd, 0, '']);
      expect(queries.length).toBeGreaterThan(0);
    }
  });
});
