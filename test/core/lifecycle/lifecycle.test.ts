import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderInstall } from '../../../src/core/install/index.js';
import { NOT_CLI_INSTALLED, NOTHING_TO_UNINSTALL, prune, uninstall } from '../../../src/core/lifecycle/index.js';
import { UserError } from '../../../src/core/errors.js';
import { type ApiServer, kubeGlobals, startApiServer } from '../../support/apiserver.js';
import { linkerdCrds, meshedPod, namespaceObject } from '../install/upgrade-support.js';

const NO_INPUTS = { flags: [], valuesFiles: [], set: [], setString: [], setFile: [] };
const req = (server: ApiServer) => ({ namespace: 'linkerd', cluster: kubeGlobals(server) });

async function rejection(p: Promise<unknown>): Promise<UserError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof UserError)) throw new Error(`expected a UserError, got ${String(e)}`);
  return e;
}

describe('uninstall', () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = await startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml', objects: linkerdCrds() });
    const { objects } = await renderInstall({ namespace: 'linkerd', crds: false, ...NO_INPUTS });
    server.put(...objects);
  });
  afterAll(() => server.stop());

  it('names the cluster-scoped objects, RBAC, CRDs and the namespace, in linkerd order, as stubs', async () => {
    const { objects, notes } = await uninstall({ ...req(server), force: false });
    expect(notes).toEqual([]);
    const kinds = [...new Set(objects.map((o) => o.kind))];
    expect(kinds).toEqual([
      'ClusterRole',
      'ClusterRoleBinding',
      'Role',
      'RoleBinding',
      'CustomResourceDefinition',
      'MutatingWebhookConfiguration',
      'ValidatingWebhookConfiguration',
      'Namespace',
    ]);
    expect(objects.filter((o) => o.kind === 'CustomResourceDefinition')).toHaveLength(10);
    expect(objects.find((o) => o.kind === 'Role' && o.metadata.name === 'linkerd-heartbeat')).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { creationTimestamp: null, name: 'linkerd-heartbeat', namespace: 'linkerd' },
    });
    expect(objects.at(-1)).toEqual({ apiVersion: 'v1', kind: 'Namespace', metadata: { creationTimestamp: null, name: 'linkerd' } });
    // Namespaced workloads go with their namespace; they are not listed.
    expect(objects.some((o) => o.kind === 'Deployment' || o.kind === 'Secret')).toBe(false);
  });

  it('refuses while extensions or meshed workloads remain, listing both, unless --force', async () => {
    server.put(
      namespaceObject('linkerd-viz', { 'linkerd.io/extension': 'viz' }),
      meshedPod('linkerd-viz', 'web-viz', 'x'),
      namespaceObject('shop'),
      meshedPod('shop', 'web-1', 'x'),
      meshedPod('linkerd', 'linkerd-destination-1', 'x'),
    );
    try {
      const e = await rejection(uninstall({ ...req(server), force: false }));
      expect(e.verbatim).toBe(true);
      expect(e.message).toBe(
        'Please uninstall the following extensions before uninstalling the control-plane:\n\t* viz\n' +
          'Please uninject the following pods before uninstalling the control-plane:\n\t* web-1\n',
      );
      const forced = await uninstall({ ...req(server), force: true });
      expect(forced.objects.some((o) => o.kind === 'Namespace' && o.metadata.name === 'linkerd')).toBe(true);
    } finally {
      server.remove('v1', 'Pod', 'web-viz', 'linkerd-viz');
      server.remove('v1', 'Pod', 'web-1', 'shop');
      server.remove('v1', 'Pod', 'linkerd-destination-1', 'linkerd');
      server.remove('v1', 'Namespace', 'linkerd-viz');
      server.remove('v1', 'Namespace', 'shop');
    }
  });

  it('on the pods fixture cluster, refuses with the meshed emojivoto pods in API order (control-plane pods are fine)', async () => {
    const fixture = await startApiServer({ fromYaml: ['fixtures/clusters/empty.yaml', 'fixtures/clusters/pods.yaml'] });
    try {
      const e = await rejection(uninstall({ ...req(fixture), force: false }));
      expect(e.message).toBe(
        'Please uninject the following pods before uninstalling the control-plane:\n\t* emoji-7f6d5c4b3-uvwxy\n\t* voting-5b9d7c6f4-pqrst\n\t* web-6c8f9d7b5-klmno\n',
      );
      // --force lists the one labelled object there, the linkerd namespace.
      expect((await uninstall({ ...req(fixture), force: true })).objects).toEqual([
        { apiVersion: 'v1', kind: 'Namespace', metadata: { creationTimestamp: null, name: 'linkerd' } },
      ]);
    } finally {
      await fixture.stop();
    }
  });

  it('says so on stderr when nothing is installed', async () => {
    const empty = await startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml' });
    try {
      expect(await uninstall({ ...req(empty), force: false })).toEqual({ objects: [], notes: [NOTHING_TO_UNINSTALL] });
    } finally {
      await empty.stop();
    }
  });

  it('a failed listing is an error naming the kind, not an empty success', async () => {
    const off = server.setFault('GET /apis/rbac.authorization.k8s.io/v1/clusterroles', {
      status: 403,
      message: 'clusterroles.rbac.authorization.k8s.io is forbidden',
    });
    try {
      const e = await rejection(uninstall({ ...req(server), force: true }));
      expect(e.message).toMatch(/^could not fetch ClusterRole resources: .*forbidden/);
    } finally {
      off();
    }
  });
});

describe('prune', () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = await startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml', objects: linkerdCrds() });
  });
  afterAll(() => server.stop());

  it('needs the overrides Secret of a CLI install', async () => {
    const e = await rejection(prune(req(server)));
    expect([e.message, e.verbatim]).toEqual([NOT_CLI_INSTALLED, false]);
  });

  it('lists labelled objects the current release would not render, and nothing else', async () => {
    const { objects } = await renderInstall({ namespace: 'linkerd', crds: false, ...NO_INPUTS });
    const label = { 'linkerd.io/control-plane-ns': 'linkerd' };
    server.put(
      ...objects,
      // Left over from an older release.
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'linkerd-controller', namespace: 'linkerd', labels: label } },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'linkerd-linkerd-controller', labels: label } },
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'linkerd-controller', namespace: 'linkerd', labels: label }, spec: {} },
      // Not the control plane's: kept.
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unrelated', namespace: 'linkerd' } },
    );
    const result = await prune(req(server));
    expect(result.objects).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { creationTimestamp: null, name: 'linkerd-controller', namespace: 'linkerd' } },
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { creationTimestamp: null, name: 'linkerd-controller', namespace: 'linkerd' } },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { creationTimestamp: null, name: 'linkerd-linkerd-controller' } },
    ]);
  });
});
