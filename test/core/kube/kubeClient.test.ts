import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectKube, type KubeClient } from '../../../src/core/kube/kubeClient.js';
import { KubeError } from '../../../src/core/kube/kubeError.js';
import { kubeGlobals, startApiServer, writeKubeconfig, type ApiServer } from '../../support/apiserver.js';

const FIXTURES = ['fixtures/clusters/empty.yaml', 'fixtures/clusters/pods.yaml'];

const CRDS = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: servers.policy.linkerd.io }
spec:
  group: policy.linkerd.io
  scope: Namespaced
  names: { kind: Server, plural: servers, singular: server }
  versions:
  - { name: v1beta3, served: true, storage: true, schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } } }
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: gatewayclasses.gateway.networking.k8s.io }
spec:
  group: gateway.networking.k8s.io
  scope: Cluster
  names: { kind: GatewayClass, plural: gatewayclasses, singular: gatewayclass }
  versions:
  - { name: v1, served: true, storage: true, schema: { openAPIV3Schema: { type: object } } }
---
apiVersion: policy.linkerd.io/v1beta3
kind: Server
metadata: { name: web-http, namespace: emojivoto, labels: { app: web } }
spec: { port: http }
`;

const SERVERS = { group: 'policy.linkerd.io', version: 'v1beta3', plural: 'servers', kind: 'Server', namespaced: true } as const;

describe('connectKube / KubeClient against the test API server', () => {
  let server: ApiServer;
  let client: KubeClient;
  beforeAll(async () => {
    server = await startApiServer({ fromYaml: [...FIXTURES, CRDS], version: 'v1.34.1' });
    client = await connectKube(kubeGlobals(server));
  });
  afterAll(async () => {
    client.close();
    await server.stop();
  });

  it('reads the server version', async () => {
    expect((await client.serverVersion()).gitVersion).toBe('v1.34.1');
    expect(client.server).toBe(server.url);
    expect(client.contextName).toBe('test');
    expect(client.namespace).toBe('default');
  });

  it('gets typed built-in objects, namespaced and cluster-scoped', async () => {
    const cm = await client.get('configmaps', 'extension-apiserver-authentication', 'kube-system');
    expect(cm.data?.['requestheader-client-ca-file']).toContain('BEGIN CERTIFICATE');
    const node = await client.get('nodes', 'test-control-plane');
    expect(node.status?.nodeInfo?.kubeletVersion).toBe('v1.34.1');
    const slice = await client.get('endpointslices', 'kubernetes', 'default');
    expect(slice.endpoints[0].addresses).toEqual(['172.18.0.2']);
  });

  it('finds nothing (rather than throwing) for a missing object', async () => {
    expect(await client.find('configmaps', 'linkerd-config', 'linkerd')).toBeUndefined();
  });

  it('lists with label selectors (=, !=, in, notin, exists, !key) and fills in apiVersion/kind', async () => {
    const names = async (labelSelector: string, namespace?: string) => (await client.list('pods', { labelSelector, namespace })).map((p) => p.metadata?.name);
    expect(await names('linkerd.io/control-plane-ns=linkerd', 'linkerd')).toEqual(['linkerd-destination-7d9c8b6f5-abcde', 'linkerd-identity-5f7b9c4d8-fghij']);
    expect(await names('linkerd.io/control-plane-component')).toHaveLength(2);
    expect(await names('app in (web-svc, emoji-svc)')).toEqual(['emoji-7f6d5c4b3-uvwxy', 'web-6c8f9d7b5-klmno']);
    expect(await names('app,app notin (web-svc,emoji-svc)')).toEqual(['voting-5b9d7c6f4-pqrst']);
    expect(await names('!linkerd.io/control-plane-ns,run!=curl')).toEqual(['migrate-9x8w7', 'report-28861440-zzzzz']);
    expect(await names('app==web-svc')).toEqual(['web-6c8f9d7b5-klmno']);
    const pods = await client.list('pods', { namespace: 'default' });
    expect(pods[0]).toMatchObject({ apiVersion: 'v1', kind: 'Pod' });
  });

  it('lists with field selectors', async () => {
    const pending = await client.list('pods', { fieldSelector: 'status.phase=Pending' });
    expect(pending.map((p) => p.metadata?.name)).toEqual(['voting-5b9d7c6f4-pqrst']);
    const byName = await client.list('namespaces', { fieldSelector: 'metadata.name=linkerd' });
    expect(byName).toHaveLength(1);
  });

  it('follows pagination when a page size is given', async () => {
    server.resetRequests();
    const pods = await client.list('pods', { limit: 3 });
    expect(pods).toHaveLength(8);
    expect(server.requests.filter((r) => r.path === '/api/v1/pods')).toHaveLength(3);
  });

  it('gets and lists custom resources by group/version/plural', async () => {
    const list = await client.list(SERVERS, { namespace: 'emojivoto', labelSelector: 'app=web' });
    expect(list.map((s) => s.metadata?.name)).toEqual(['web-http']);
    expect(list[0].kind).toBe('Server');
    const one = await client.get(SERVERS, 'web-http', 'emojivoto');
    expect(one.spec).toEqual({ port: 'http' });
    const classes = await client.list({ group: 'gateway.networking.k8s.io', version: 'v1', plural: 'gatewayclasses', kind: 'GatewayClass', namespaced: false });
    expect(classes).toEqual([]);
  });

  it('asks SelfSubjectAccessReviews', async () => {
    server.setDenials([{ verb: 'create', resource: 'cronjobs', group: 'batch', namespace: 'linkerd', reason: 'no cronjobs for you' }]);
    try {
      expect(await client.selfSubjectAccessReview({ verb: 'create', resource: 'deployments', group: 'apps', namespace: 'linkerd' })).toEqual({
        allowed: true,
        denied: false,
        reason: '',
        evaluationError: undefined,
      });
      const denied = await client.selfSubjectAccessReview({ verb: 'create', resource: 'cronjobs', group: 'batch', namespace: 'linkerd' });
      expect(denied).toMatchObject({ allowed: false, reason: 'no cronjobs for you' });
    } finally {
      server.setDenials([]);
    }
  });

  it('dry-run creates cluster-scoped and namespaced objects, routed by apiVersion/kind, without storing them', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { kind: 'Widget', plural: 'widgets' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    };
    const echoed = await client.dryRunCreate(crd);
    // The body goes out raw: client-node's serializer would have dropped x-kubernetes-* fields.
    expect((echoed.spec as any).versions[0].schema.openAPIV3Schema['x-kubernetes-preserve-unknown-fields']).toBe(true);
    expect(echoed.metadata?.uid).toBeTruthy();
    const role = await client.dryRunCreate({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'linkerd-linkerd-identity' },
      rules: [],
    });
    expect(role.metadata?.name).toBe('linkerd-linkerd-identity');
    const sa = await client.dryRunCreate({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'linkerd-identity', namespace: 'linkerd' } });
    expect(sa.metadata?.namespace).toBe('linkerd');
    const server_ = await client.dryRunCreate({
      apiVersion: 'policy.linkerd.io/v1beta3',
      kind: 'Server',
      metadata: { name: 's2', namespace: 'emojivoto' },
      spec: {},
    });
    expect(server_.kind).toBe('Server');
    const posts = server.requests.filter((r) => r.method === 'POST' && r.query === 'dryRun=All').map((r) => r.path);
    expect(posts).toEqual([
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      '/apis/rbac.authorization.k8s.io/v1/clusterroles',
      '/api/v1/namespaces/linkerd/serviceaccounts',
      '/apis/policy.linkerd.io/v1beta3/namespaces/emojivoto/servers',
    ]);
    expect(server.objects('apiextensions.k8s.io/v1', 'CustomResourceDefinition').map((c) => c.metadata.name)).not.toContain('widgets.example.com');
  });

  it('dry-run create reports an unknown kind and an existing object as KubeErrors', async () => {
    await expect(client.dryRunCreate({ apiVersion: 'example.com/v9', kind: 'Nope', metadata: { name: 'x' } })).rejects.toMatchObject({
      kind: 'notfound',
      message: 'no matches for kind "Nope" in version "example.com/v9"',
    });
    await expect(client.dryRunCreate({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'linkerd' } })).rejects.toMatchObject({
      kind: 'conflict',
      reason: 'AlreadyExists',
      message: 'namespaces "linkerd" already exists',
    });
  });

  it('routes dry-run creates by discovery over its own transport: once per apiVersion, the context namespace by default', async () => {
    const discovery = () => server.requests.filter((r) => r.method === 'GET' && r.path === '/apis/rbac.authorization.k8s.io/v1').length;
    const fresh = await connectKube(kubeGlobals(server));
    try {
      const before = discovery();
      await fresh.dryRunCreate({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'a' }, rules: [] });
      await fresh.dryRunCreate({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'b' }, rules: [] });
      expect(discovery() - before).toBe(1);
      const posts = server.requests.filter((r) => r.method === 'POST' && r.query === 'dryRun=All').map((r) => r.path);
      expect(posts.slice(-1)).toEqual(['/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles']);
    } finally {
      fresh.close();
    }
  });

  it('reports a failed discovery as the server said it, and asks again next time', async () => {
    const fresh = await connectKube(kubeGlobals(server));
    const remove = server.setFault('GET /apis/apps/v1', { status: 503, message: 'the server is currently unable to handle the request' }, { times: 1 });
    try {
      const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'linkerd' }, spec: {} };
      await expect(fresh.dryRunCreate(deployment)).rejects.toMatchObject({
        message: expect.stringContaining('the server is currently unable to handle the request'),
      });
      await expect(fresh.dryRunCreate(deployment)).resolves.toMatchObject({ kind: 'Deployment' });
    } finally {
      remove();
      fresh.close();
    }
  });

  it('discovers API resources, including CRD groups', async () => {
    const resources = await client.apiResources();
    const find = (group: string, name: string) => resources.find((r) => r.group === group && r.name === name);
    expect(find('', 'pods')).toMatchObject({ version: 'v1', kind: 'Pod', namespaced: true, shortNames: ['po'] });
    expect(find('apps', 'deployments')).toMatchObject({ version: 'v1', kind: 'Deployment' });
    expect(find('policy.linkerd.io', 'servers')).toMatchObject({ version: 'v1beta3', kind: 'Server', namespaced: true });
    expect(find('gateway.networking.k8s.io', 'gatewayclasses')).toMatchObject({ namespaced: false });
  });
});

describe('kubeconfig selection and impersonation', () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = await startApiServer({ fromYaml: FIXTURES });
  });
  afterAll(() => server.stop());

  it('sends --as and --as-group as impersonation headers', async () => {
    const client = await connectKube(kubeGlobals(server, { as: 'jane', asGroup: ['devs', 'ops'] }));
    server.resetRequests();
    await client.serverVersion();
    expect(server.requests[0]).toMatchObject({ impersonateUser: 'jane', impersonateGroups: ['devs', 'ops'], user: 'jane' });
    client.close();
  });

  it('honours --context, and $KUBECONFIG (first file wins) when --kubeconfig is not given', async () => {
    const file = path.join(server.dir, 'multi.kubeconfig');
    writeKubeconfig(
      file,
      [
        { name: 'broken', server: 'https://127.0.0.1:1', caPem: server.caPem, token: server.token },
        { name: 'good', server: server.url, caPem: server.caPem, token: server.token, namespace: 'emojivoto' },
      ],
      'broken',
    );
    const viaFlag = await connectKube({ kubeconfig: file, context: 'good', asGroup: [] });
    expect(viaFlag.namespace).toBe('emojivoto');
    expect((await viaFlag.serverVersion()).gitVersion).toBe('v1.34.1');
    viaFlag.close();

    const missing = path.join(server.dir, 'does-not-exist');
    const viaEnv = await connectKube({ context: 'good', asGroup: [] }, { env: { KUBECONFIG: `${missing}${path.delimiter}${file}` } });
    expect(viaEnv.contextName).toBe('good');
    viaEnv.close();
  });

  it('fails with one clear line for a missing kubeconfig, an unknown context, or no configuration', async () => {
    await expect(connectKube({ kubeconfig: '/nonexistent/kubeconfig', asGroup: [] })).rejects.toMatchObject({
      kind: 'config',
      message: 'stat /nonexistent/kubeconfig: no such file or directory',
    });
    await expect(connectKube(kubeGlobals(server, { context: 'nope' }))).rejects.toMatchObject({
      kind: 'config',
      message: 'context was not found for specified context: nope',
    });
    const empty = await connectKube({ asGroup: [] }, { env: { HOME: server.dir } }).catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(KubeError);
    expect((empty as KubeError).message).toBe('invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable');
  });

  it('fails with one clear line for an unparseable kubeconfig', async () => {
    const file = path.join(server.dir, 'bad.kubeconfig');
    fs.writeFileSync(file, 'clusters:\n- name: x\n  cluster: {}\n');
    const e = (await connectKube({ kubeconfig: file, asGroup: [] }).catch((x: unknown) => x)) as KubeError;
    expect(e.kind).toBe('config');
    expect(e.message).toBe(`error loading config file "${file}": clusters[0].cluster.server is missing`);
  });
});
