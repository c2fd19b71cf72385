import fs from 'node:fs';
import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../support/apiserver.js';
import { kubectl } from '../../support/kubectl.js';

const FIXTURES = ['fixtures/clusters/empty.yaml', 'fixtures/clusters/pods.yaml'];

const SERVER_CRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: servers.policy.linkerd.io
spec:
  group: policy.linkerd.io
  scope: Namespaced
  names: { kind: Server, plural: servers, singular: server, shortNames: [srv] }
  versions:
  - { name: v1beta1, served: true, storage: false, schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } } }
  - { name: v1beta3, served: true, storage: true, schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } } }
---
apiVersion: policy.linkerd.io/v1beta3
kind: Server
metadata: { name: web-http, namespace: emojivoto }
spec: { port: http }
`;

/** A raw HTTPS request, trusting the server's CA. */
function request(server: ApiServer, path: string, opts: { token?: string | null; method?: string; body?: string; accept?: string } = {}) {
  return new Promise<{ status: number; body: any; ms: number }>((resolve, reject) => {
    const t0 = Date.now();
    const headers: Record<string, string> = { Accept: opts.accept ?? 'application/json' };
    if (opts.token !== null) headers.Authorization = `Bearer ${opts.token ?? server.token}`;
    if (opts.body) headers['Content-Type'] = 'application/json';
    const req = https.request(`${server.url}${path}`, { method: opts.method ?? 'GET', ca: server.caPem, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // plain text
        }
        resolve({ status: res.statusCode ?? 0, body, ms: Date.now() - t0 });
      });
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('test API server with kubectl 1.32', () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = await startApiServer({ fromYaml: [...FIXTURES, SERVER_CRD], denials: [{ verb: 'create', resource: 'secrets', namespace: 'linkerd' }] });
  });
  afterAll(() => server.stop());

  it('lists pods in all namespaces with server-side printed columns', async () => {
    const r = await kubectl(server, 'get', 'pods', '-A');
    expect(r.stderr).toBe('');
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NAMESPACE\s+NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
    expect(lines).toHaveLength(9);
    expect(r.stdout).toMatch(/linkerd\s+linkerd-destination-7d9c8b6f5-abcde\s+4\/4\s+Running\s+0\s+60m/);
    expect(r.stdout).toMatch(/emojivoto\s+emoji-7f6d5c4b3-uvwxy\s+1\/2\s+CrashLoopBackOff\s+7 \(2m\d*s? ago\)/);
    expect(r.stdout).toMatch(/emojivoto\s+voting-5b9d7c6f4-pqrst\s+0\/2\s+Pending/);
    expect(r.stdout).toMatch(/batch\s+report-28861440-zzzzz\s+0\/1\s+Completed/);
    expect(r.stdout).toMatch(/batch\s+migrate-9x8w7\s+0\/1\s+Error/);
  });

  it('lists namespaces', async () => {
    const r = await kubectl(server, 'get', 'ns');
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(['NAME', 'batch', 'default', 'emojivoto', 'kube-node-lease', 'kube-public', 'kube-system', 'linkerd']);
    expect(r.stdout).toMatch(/kube-system\s+Active\s+120m/);
  });

  it('serves discovery for kubectl api-resources, including CRD-defined groups', async () => {
    const r = await kubectl(server, 'api-resources');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^pods\s+po\s+v1\s+true\s+Pod$/m);
    expect(r.stdout).toMatch(/^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m);
    expect(r.stdout).toMatch(/^customresourcedefinitions\s+crd,crds\s+apiextensions.k8s.io\/v1\s+false\s+CustomResourceDefinition$/m);
    expect(r.stdout).toMatch(/^selfsubjectaccessreviews\s+authorization.k8s.io\/v1\s+false\s+SelfSubjectAccessReview$/m);
    expect(r.stdout).toMatch(/^servers\s+srv\s+policy.linkerd.io\/v1beta3\s+true\s+Server$/m);
  });

  it('answers kubectl auth can-i (a protobuf SelfSubjectAccessReview) from the denials', async () => {
    const yes = await kubectl(server, 'auth', 'can-i', 'create', 'deployments', '-n', 'linkerd');
    expect([yes.code, yes.stdout.trim()]).toEqual([0, 'yes']);
    const no = await kubectl(server, 'auth', 'can-i', 'create', 'secrets', '-n', 'linkerd');
    expect([no.code, no.stdout.trim()]).toEqual([1, 'no']);
    const elsewhere = await kubectl(server, 'auth', 'can-i', 'create', 'secrets', '-n', 'default');
    expect(elsewhere.stdout.trim()).toBe('yes');
  });

  it('prints the real NotFound message', async () => {
    const r = await kubectl(server, 'get', 'pod', 'nope', '-n', 'linkerd');
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('Error from server (NotFound): pods "nope" not found');
  });

  it('filters by label selector and lists custom resources', async () => {
    const web = await kubectl(server, 'get', 'pods', '-A', '-l', 'linkerd.io/control-plane-ns=linkerd,app in (web-svc,voting-svc)', '-o', 'name');
    expect(web.stdout.trim().split('\n')).toEqual(['pod/voting-5b9d7c6f4-pqrst', 'pod/web-6c8f9d7b5-klmno']);
    const srv = await kubectl(server, 'get', 'srv', '-n', 'emojivoto', '-o', 'jsonpath={.items[*].metadata.name}');
    expect(srv.stdout).toBe('web-http');
  });

  it('accepts a server-side dry-run create without storing', async () => {
    const manifest = `${server.dir}/ns.yaml`;
    fs.writeFileSync(manifest, 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: dry\n');
    const r = await kubectl(server, 'create', '--dry-run=server', '--validate=false', '-f', manifest);
    expect(r.stdout.trim()).toBe('namespace/dry created (server dry run)');
    expect(server.objects('v1', 'Namespace').map((n) => n.metadata.name)).not.toContain('dry');
  });
});

describe('test API server knobs', () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = await startApiServer({ fromYaml: FIXTURES, version: 'v1.33.2' });
  });
  afterAll(() => server.stop());

  it('serves /version with the configured gitVersion', async () => {
    const r = await request(server, '/version');
    expect(r.body).toMatchObject({ major: '1', minor: '33', gitVersion: 'v1.33.2' });
  });

  it('answers 401 with a Status without or with a wrong token', async () => {
    for (const token of [null, 'wrong']) {
      const r = await request(server, '/api/v1/pods', { token });
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Unauthorized', message: 'Unauthorized', code: 401 });
    }
  });

  it('returns <Kind>List with a resourceVersion, items without apiVersion/kind like the real server', async () => {
    const r = await request(server, '/api/v1/namespaces/linkerd/pods');
    expect(r.body.kind).toBe('PodList');
    expect(r.body.apiVersion).toBe('v1');
    expect(r.body.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(r.body.items.map((p: any) => p.metadata.name)).toEqual(['linkerd-destination-7d9c8b6f5-abcde', 'linkerd-identity-5f7b9c4d8-fghij']);
    expect(r.body.items[0].kind).toBeUndefined();
  });

  it('supports field selectors and rejects unsupported fields', async () => {
    const r = await request(server, `/api/v1/pods?fieldSelector=${encodeURIComponent('status.phase!=Running,spec.nodeName=test-control-plane')}`);
    expect(r.body.items.map((p: any) => p.metadata.name)).toEqual(['migrate-9x8w7', 'report-28861440-zzzzz']);
    const bad = await request(server, '/api/v1/pods?fieldSelector=spec.image%3Dx');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('field label not supported: spec.image');
  });

  it('paginates with limit/continue', async () => {
    const first = await request(server, '/api/v1/pods?limit=3');
    expect(first.body.items).toHaveLength(3);
    expect(first.body.metadata.remainingItemCount).toBe(5);
    const second = await request(server, `/api/v1/pods?limit=10&continue=${first.body.metadata.continue}`);
    expect(second.body.items).toHaveLength(5);
    expect(second.body.metadata.continue).toBeUndefined();
  });

  it('fills uid, resourceVersion and creationTimestamp, and resolves ${now} placeholders', async () => {
    const r = await request(server, '/api/v1/nodes/test-control-plane');
    const ready = r.body.status.conditions.find((c: any) => c.type === 'Ready');
    expect(Math.abs(Date.parse(ready.lastHeartbeatTime) - Date.now())).toBeLessThan(60_000);
    expect(r.body.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.body.kind).toBe('Node');
  });

  it('adds measurable latency to every request', async () => {
    server.setLatency(150);
    try {
      const r = await request(server, '/version');
      expect(r.ms).toBeGreaterThanOrEqual(140);
    } finally {
      server.setLatency(0);
    }
  });

  it('injects Status faults, limited by times, and records requests', async () => {
    server.resetRequests();
    server.setFault('GET /api/v1/namespaces/linkerd/pods', { status: 500, message: 'etcdserver: request timed out' }, { times: 1 });
    const failed = await request(server, '/api/v1/namespaces/linkerd/pods');
    expect(failed.status).toBe(500);
    expect(failed.body).toMatchObject({ kind: 'Status', reason: 'InternalError', message: 'etcdserver: request timed out', code: 500 });
    const ok = await request(server, '/api/v1/namespaces/linkerd/pods');
    expect(ok.status).toBe(200);
    expect(server.requestCount()).toBe(2);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v1/namespaces/linkerd/pods', 'GET /api/v1/namespaces/linkerd/pods']);
  });

  it('enforces denials on real requests with the real Forbidden message', async () => {
    server.setDenials([{ verb: 'list', resource: 'secrets' }]);
    try {
      const r = await request(server, '/api/v1/namespaces/linkerd/secrets');
      expect(r.status).toBe(403);
      expect(r.body.message).toBe('secrets is forbidden: User "kubernetes-admin" cannot list resource "secrets" in API group "" in the namespace "linkerd"');
    } finally {
      server.setDenials([]);
    }
  });

  it('stores a non-dry-run create, refuses duplicates and creates in missing namespaces', async () => {
    const cm = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'made' }, data: { a: 'b' } });
    const created = await request(server, '/api/v1/namespaces/default/configmaps', { method: 'POST', body: cm });
    expect(created.status).toBe(201);
    expect(created.body.metadata.namespace).toBe('default');
    const again = await request(server, '/api/v1/namespaces/default/configmaps', { method: 'POST', body: cm });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('configmaps "made" already exists');
    const missing = await request(server, '/api/v1/namespaces/nowhere/configmaps', { method: 'POST', body: cm });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('namespaces "nowhere" not found');
  });
});
