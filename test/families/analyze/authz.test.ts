import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../support/apiserver.js';
import { runCli } from '../../support/cli.js';

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

const NS = 'shop';
const podSpec = { containers: [{ name: 'web', image: 'x', ports: [{ name: 'http', containerPort: 8080 }] }] };
const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: NS, uid: 'deploy-uid' },
  spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: podSpec } },
};
const replicaSet = {
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: {
    name: 'web-5d8',
    namespace: NS,
    uid: 'rs-uid',
    labels: { app: 'web' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'deploy-uid' }],
  },
  spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: podSpec } },
};
const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-5d8-abc',
    namespace: NS,
    labels: { app: 'web' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-5d8', uid: 'rs-uid' }],
  },
  spec: podSpec,
};
const server = (name: string, port: string | number, labels: Record<string, string> = {}) => ({
  apiVersion: 'policy.linkerd.io/v1beta3',
  kind: 'Server',
  metadata: { name, namespace: NS, labels },
  spec: { podSelector: { matchLabels: { app: 'web' } }, port },
});
const policyObjects = [
  server('web-http', 'http', { tier: 'front' }),
  // Selects the pods, but on a port they do not declare: not theirs.
  server('web-admin', 'admin', { tier: 'front' }),
  {
    apiVersion: 'policy.linkerd.io/v1beta1',
    kind: 'ServerAuthorization',
    metadata: { name: 'by-name', namespace: NS },
    spec: { server: { name: 'web-http' }, client: { unauthenticated: true } },
  },
  {
    apiVersion: 'policy.linkerd.io/v1beta1',
    kind: 'ServerAuthorization',
    metadata: { name: 'by-label', namespace: NS },
    spec: { server: { selector: { matchLabels: { tier: 'front' } } }, client: { unauthenticated: true } },
  },
  {
    apiVersion: 'policy.linkerd.io/v1beta1',
    kind: 'ServerAuthorization',
    metadata: { name: 'to-nothing', namespace: NS },
    spec: { server: { name: 'gone' }, client: { unauthenticated: true } },
  },
  {
    apiVersion: 'policy.linkerd.io/v1alpha1',
    kind: 'AuthorizationPolicy',
    metadata: { name: 'whole-ns', namespace: NS },
    spec: { targetRef: { group: 'core', kind: 'Namespace', name: NS }, requiredAuthenticationRefs: [] },
  },
  {
    apiVersion: 'policy.linkerd.io/v1alpha1',
    kind: 'AuthorizationPolicy',
    metadata: { name: 'on-route', namespace: NS },
    spec: { targetRef: { group: 'policy.linkerd.io', kind: 'HTTPRoute', name: 'metrics' }, requiredAuthenticationRefs: [] },
  },
  {
    apiVersion: 'policy.linkerd.io/v1alpha1',
    kind: 'HTTPRoute',
    metadata: { name: 'metrics', namespace: NS },
    spec: { parentRefs: [{ group: 'policy.linkerd.io', kind: 'Server', name: 'web-http' }], rules: [] },
  },
];

const EXPECTED = [
  'ROUTE    SERVER    AUTHORIZATION_POLICY   SERVER_AUTHORIZATION   ',
  '*        web-http                         by-name                ',
  '*        web-http                         by-label               ',
  '*        web-http  whole-ns                                      ',
  'metrics  web-http  on-route                                      ',
  '',
].join('\n');

// The API server lists by name, and rows follow the lists (manifests: the files' order).
const LISTED = [
  'ROUTE    SERVER    AUTHORIZATION_POLICY   SERVER_AUTHORIZATION   ',
  '*        web-http                         by-label               ',
  '*        web-http                         by-name                ',
  'metrics  web-http  on-route                                      ',
  '*        web-http  whole-ns                                      ',
  '',
].join('\n');

describe('linkerd authz (loopback API server)', () => {
  let api: ApiServer;
  beforeAll(async () => {
    api = await startApiServer({
      objects: [
        crd('servers', 'Server', 'v1beta3'),
        crd('serverauthorizations', 'ServerAuthorization', 'v1beta1'),
        crd('authorizationpolicies', 'AuthorizationPolicy', 'v1alpha1'),
        crd('httproutes', 'HTTPRoute', 'v1alpha1'),
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } },
        deployment,
        replicaSet,
        pod,
        ...policyObjects,
      ],
    });
  });
  afterAll(() => api.stop());

  it('lists the Servers and authorizations of a deployment, ServerAuthorizations first, and says what it skipped', async () => {
    const r = await runCli(['--kubeconfig', api.kubeconfigPath, 'authz', '-n', NS, 'deploy/web']);
    expect(r.stderr).toContain('ServerAuthorization/to-nothing targets Server/gone but we failed to get it:');
    expect(r.stdout).toBe(LISTED);
    expect(r.code).toBe(0);
  });

  it('joins TYPE NAME as TYPE/NAME and accepts a pod', async () => {
    const r = await runCli(['--kubeconfig', api.kubeconfigPath, 'authz', '-n', NS, 'po', 'web-5d8-abc']);
    expect(r.stdout).toBe(LISTED);
  });

  it('prints the header alone for a workload nothing applies to', async () => {
    const r = await runCli(['--kubeconfig', api.kubeconfigPath, 'authz', '-n', 'default', 'pods']);
    expect(r.stdout).toBe('ROUTE   SERVER  AUTHORIZATION_POLICY   SERVER_AUTHORIZATION   \n');
  });

  it('refuses what the real command refuses, with its words', async () => {
    const svc = await runCli(['--kubeconfig', api.kubeconfigPath, 'authz', '-n', NS, 'svc/web']);
    expect([svc.code, svc.stderr, svc.stdout]).toEqual([1, 'failed to get pods: unsupported resource type: web', '']);
    const bad = await runCli(['--kubeconfig', api.kubeconfigPath, 'authz', 'deploy/a/b']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('invalid resource: deploy/a/b');
    const word = await runCli(['--kubeconfig', api.kubeconfigPath, 'authz', 'deploymint/web']);
    expect(word.stderr).toContain('cannot find Kubernetes canonical name from friendly name [deploymint]');
  });
});

describe('linkerd authz -f (offline, from manifests)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'authz-f-'));
    writeFileSync(path.join(dir, 'app.yaml'), yaml.dump(deployment));
    writeFileSync(path.join(dir, 'policy.yaml'), policyObjects.map((o) => yaml.dump(o)).join('---\n'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers as the cluster does from the same objects', async () => {
    const r = await runCli(['authz', '-f', dir, '-n', NS, 'deploy/web']);
    expect(r.stdout).toBe(EXPECTED);
    expect(r.stderr).toContain('ServerAuthorization/to-nothing targets Server/gone but we failed to get it: servers.policy.linkerd.io "gone" not found');
    expect(r.code).toBe(0);
  });

  it('counts a numeric Server port as matching any unnamed container port, as the real command does', async () => {
    const unnamed = {
      ...deployment,
      spec: {
        ...deployment.spec,
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'x', ports: [{ containerPort: 9000 }] }] } },
      },
    };
    writeFileSync(path.join(dir, 'app.yaml'), yaml.dump(unnamed));
    writeFileSync(path.join(dir, 'policy.yaml'), [server('by-number', 8080), { ...policyObjects[5] }].map((o) => yaml.dump(o)).join('---\n'));
    const r = await runCli(['authz', '-f', dir, '-n', NS, 'deploy/web']);
    expect(r.stdout.split('\n')[1]).toBe('*       by-number  whole-ns                                      ');
  });

  it('names a workload the manifests do not hold', async () => {
    const r = await runCli(['authz', '-f', dir, '-n', NS, 'deploy/nope']);
    expect([r.code, r.stderr]).toEqual([1, 'failed to get pods: deployment shop/nope is in none of the manifests']);
  });
});

describe('linkerd authz operands (cobra RangeArgs(1, 2))', () => {
  it('refuses none and three with the count and the usage, nothing on stdout', async () => {
    for (const args of [[], ['deploy', 'web', 'extra']]) {
      const r = await runCli(['authz', ...args]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      const lines = r.stderr.split('\n');
      expect(lines[0]).toBe(`Error: accepts between 1 and 2 arg(s), received ${args.length}`);
      expect(lines.slice(1, 3)).toEqual(['Usage:', '  linkerd authz [flags] resource']);
    }
  });
});
