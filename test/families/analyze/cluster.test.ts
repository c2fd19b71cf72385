import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAnalyze } from '../../../src/families/analyze/run.js';
import { kubeGlobals, startApiServer, type ApiServer } from '../../support/apiserver.js';

const crd = (plural: string, kind: string, version: string) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.policy.linkerd.io` },
  spec: {
    group: 'policy.linkerd.io',
    scope: 'Namespaced',
    names: { plural, kind, singular: kind.toLowerCase() },
    versions: [{ name: version, served: true, storage: true }],
  },
});

const deployment = (name: string, namespace: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace },
  spec: {
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image: 'x', ports: [{ name: 'http', containerPort: 8080 }] }] } },
  },
});

const server = (name: string, namespace: string, port: string) => ({
  apiVersion: 'policy.linkerd.io/v1beta3',
  kind: 'Server',
  metadata: { name, namespace },
  spec: { podSelector: { matchLabels: { app: 'web' } }, port, accessPolicy: 'all-unauthenticated' },
});

describe('linkerd analyze --use-cluster (loopback API server)', () => {
  let api: ApiServer;
  let dir: string;
  beforeAll(async () => {
    api = await startApiServer({
      objects: [
        crd('servers', 'Server', 'v1beta3'),
        crd('meshtlsauthentications', 'MeshTLSAuthentication', 'v1alpha1'),
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', annotations: { 'linkerd.io/inject': 'enabled' } } },
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } },
        deployment('web', 'shop'),
        deployment('web', 'other'),
        // Wrong in the cluster, fixed by the file below: the file's version is the one analyzed.
        server('web-http', 'shop', 'htp'),
        server('web-http', 'other', 'htp'),
      ],
    });
    dir = mkdtempSync(path.join(os.tmpdir(), 'analyze-cluster-'));
    writeFileSync(
      path.join(dir, 'server.yaml'),
      [
        'apiVersion: policy.linkerd.io/v1beta3',
        'kind: Server',
        'metadata:',
        '  name: web-http',
        '  namespace: shop',
        'spec:',
        '  podSelector:',
        '    matchLabels:',
        '      app: web',
        '  port: http',
        '  accessPolicy: all-unauthenticated',
        '---',
        'apiVersion: policy.linkerd.io/v1beta3',
        'kind: Server',
        'metadata:',
        '  name: web-admin',
        '  namespace: shop',
        'spec:',
        '  podSelector:',
        '    matchLabels:',
        '      app: web',
        '  port: admin',
        '  accessPolicy: all-unauthenticated',
        '',
      ].join('\n'),
    );
  });
  afterAll(async () => {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (inputs: string[], namespace?: string) =>
    runAnalyze({ inputs, useCluster: true, namespace, failOn: 'error', suppress: [], controlPlaneNamespace: 'linkerd', kube: kubeGlobals(api) });

  it("resolves the files' Servers against the cluster's workloads, the files winning", async () => {
    const { findings } = await run([path.join(dir, 'server.yaml')], 'shop');
    // web-admin's port is resolved against the cluster's Deployment; the cluster's broken web-http is replaced by the file's.
    expect(findings.map((f) => `${f.code} ${f.resource.namespace}/${f.resource.name} ${f.file}`)).toEqual([
      `LA3001 shop/web-admin ${path.join(dir, 'server.yaml')}`,
    ]);
  });

  it('reads the cluster alone, scoped by -n, one LIST per resource type', async () => {
    api.resetRequests();
    const { findings } = await run([], 'other');
    expect(findings.map((f) => `${f.code} ${f.resource.namespace}/${f.resource.name} ${f.file}:${f.line}`)).toEqual([
      'LA3001 other/web-http <cluster>:0',
      'LA3005 other/web-http <cluster>:0',
    ]);
    // Besides the control plane's linkerd-config, every request is a LIST in the namespace (or of Namespaces).
    const lists = api.requests.filter((r) => r.method === 'GET' && !r.path.endsWith('/namespaces/linkerd/configmaps/linkerd-config'));
    expect(lists.length).toBe(api.requests.length - 1);
    expect(lists.every((r) => r.path.includes('/namespaces/other/') || r.path.endsWith('/namespaces'))).toBe(true);
    expect(new Set(lists.map((r) => r.path)).size).toBe(lists.length);
  });
  it('with -n, also reads the namespaces the files name: one LIST per resource type and namespace', async () => {
    const file = path.join(dir, 'other.yaml');
    writeFileSync(
      file,
      'apiVersion: policy.linkerd.io/v1beta3\nkind: Server\nmetadata: {name: web-admin, namespace: other}\nspec:\n  podSelector: {matchLabels: {app: web}}\n  port: http\n  accessPolicy: all-unauthenticated\n',
    );
    try {
      api.resetRequests();
      const { findings } = await run([file], 'shop');
      // Resolved against other's Deployment (no LA3003 "selects no workload"); both namespaces' broken web-http are read too.
      expect(findings.map((f) => `${f.code} ${f.resource.namespace}/${f.resource.name}`).sort()).toEqual([
        'LA3001 other/web-http',
        'LA3001 shop/web-http',
        'LA3005 other/web-admin',
        'LA3005 other/web-http',
      ]);
      const lists = api.requests.filter((r) => r.method === 'GET' && !r.path.endsWith('/namespaces/linkerd/configmaps/linkerd-config'));
      expect(lists.every((r) => /\/namespaces\/(shop|other)\//.test(r.path) || r.path.endsWith('/namespaces'))).toBe(true);
      expect(lists.some((r) => r.path.includes('/namespaces/shop/'))).toBe(true);
      expect(new Set(lists.map((r) => r.path)).size).toBe(lists.length);
    } finally {
      rmSync(file, { force: true });
    }
  });
  it('with -n, a cluster-scoped object in the files (a ClusterRole) widens the reads to no other namespace', async () => {
    const file = path.join(dir, 'cluster-role.yaml');
    writeFileSync(file, 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: reader}\nrules: []\n');
    try {
      api.resetRequests();
      await run([file], 'other');
      const lists = api.requests.filter((r) => r.method === 'GET' && !r.path.endsWith('/namespaces/linkerd/configmaps/linkerd-config'));
      expect(lists.length).toBeGreaterThan(1);
      expect(lists.every((r) => r.path.includes('/namespaces/other/') || r.path.endsWith('/namespaces'))).toBe(true);
    } finally {
      rmSync(file, { force: true });
    }
  });
  it("matches a file's ServerAuthorization server.selector against the cluster's Server labels", async () => {
    api.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'app', annotations: { 'linkerd.io/inject': 'enabled' } } }, deployment('web', 'app'), {
      apiVersion: 'policy.linkerd.io/v1beta3',
      kind: 'Server',
      metadata: { name: 's', namespace: 'app', labels: { tier: 'web' } },
      spec: { podSelector: { matchLabels: { app: 'web' } }, port: 'http' },
    });
    const file = path.join(dir, 'saz.yaml');
    const saz = (label: string) =>
      `apiVersion: policy.linkerd.io/v1beta1\nkind: ServerAuthorization\nmetadata: {name: z, namespace: app}\nspec:\n  server: {selector: {matchLabels: {${label}}}}\n  client: {unauthenticated: true}\n`;
    try {
      writeFileSync(file, saz('tier: web'));
      expect((await run([file], 'app')).findings).toEqual([]);
      // Pod labels select no Server: it authorizes nothing, and the Server denies everything.
      writeFileSync(file, saz('app: web'));
      expect((await run([file], 'app')).findings.map((f) => `${f.code} ${f.resource.kind}/${f.resource.name}`).sort()).toEqual([
        'LA4001 Server/s',
        'LA4006 ServerAuthorization/z',
      ]);
    } finally {
      api.remove('policy.linkerd.io/v1beta3', 'Server', 's', 'app');
      api.remove('apps/v1', 'Deployment', 'web', 'app');
      api.remove('v1', 'Namespace', 'app');
      rmSync(file, { force: true });
    }
  });
  it("takes the trust domain and the default inbound policy from the cluster's linkerd-config", async () => {
    api.put(
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'locked', annotations: { 'linkerd.io/inject': 'enabled' } } },
      deployment('api', 'locked'),
      {
        apiVersion: 'policy.linkerd.io/v1alpha1',
        kind: 'MeshTLSAuthentication',
        metadata: { name: 'callers', namespace: 'locked' },
        spec: { identities: ['api.locked.serviceaccount.identity.linkerd.cluster.local'] },
      },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'linkerd-config', namespace: 'linkerd' },
        data: { values: 'identityTrustDomain: example.org\nproxy:\n  defaultInboundPolicy: deny\n' },
      },
    );
    try {
      const { findings } = await run([], 'locked');
      expect(findings.map((f) => `${f.code} ${f.resource.kind}/${f.resource.name}`).sort()).toEqual([
        'LA4001 Deployment/api',
        'LA5003 MeshTLSAuthentication/callers',
      ]);
      expect(findings.find((f) => f.code === 'LA5003')?.message).toMatch(/trust domain cluster\.local.*\.linkerd\.example\.org/);
    } finally {
      api.remove('v1', 'ConfigMap', 'linkerd-config', 'linkerd');
    }
  });
});
