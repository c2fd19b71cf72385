import { describe, expect, it } from 'vitest';
import { haValues, render, valuesWith } from '../../core/install/support.js';

const ref = (o: { kind: string; metadata: { name?: string; namespace?: string } }) =>
  `${o.kind}/${o.metadata.name}${o.metadata.namespace ? ` -n ${o.metadata.namespace}` : ''}`;

/** The objects of linkerd's install_default.golden, in its order (the three webhook Secrets included, as a real install emits them). */
const DEFAULT_ORDER = [
  'Namespace/linkerd',
  'ClusterRole/linkerd-linkerd-identity',
  'ClusterRoleBinding/linkerd-linkerd-identity',
  'ServiceAccount/linkerd-identity -n linkerd',
  'ClusterRole/linkerd-linkerd-destination',
  'ClusterRoleBinding/linkerd-linkerd-destination',
  'ServiceAccount/linkerd-destination -n linkerd',
  'Secret/linkerd-sp-validator-k8s-tls -n linkerd',
  'ValidatingWebhookConfiguration/linkerd-sp-validator-webhook-config',
  'Secret/linkerd-policy-validator-k8s-tls -n linkerd',
  'ValidatingWebhookConfiguration/linkerd-policy-validator-webhook-config',
  'ClusterRole/linkerd-policy',
  'ClusterRoleBinding/linkerd-destination-policy',
  'Role/remote-discovery -n linkerd',
  'RoleBinding/linkerd-destination-remote-discovery -n linkerd',
  'Role/linkerd-heartbeat -n linkerd',
  'RoleBinding/linkerd-heartbeat -n linkerd',
  'ClusterRole/linkerd-heartbeat',
  'ClusterRoleBinding/linkerd-heartbeat',
  'ServiceAccount/linkerd-heartbeat -n linkerd',
  'ClusterRole/linkerd-linkerd-proxy-injector',
  'ClusterRoleBinding/linkerd-linkerd-proxy-injector',
  'ServiceAccount/linkerd-proxy-injector -n linkerd',
  'Secret/linkerd-proxy-injector-k8s-tls -n linkerd',
  'MutatingWebhookConfiguration/linkerd-proxy-injector-webhook-config',
  'ConfigMap/linkerd-config -n linkerd',
  'Role/ext-namespace-metadata-linkerd-config -n linkerd',
  'Secret/linkerd-identity-issuer -n linkerd',
  'ConfigMap/linkerd-identity-trust-roots -n linkerd',
  'Service/linkerd-identity -n linkerd',
  'Service/linkerd-identity-headless -n linkerd',
  'Deployment/linkerd-identity -n linkerd',
  'Service/linkerd-dst -n linkerd',
  'Service/linkerd-dst-headless -n linkerd',
  'Service/linkerd-sp-validator -n linkerd',
  'Service/linkerd-policy -n linkerd',
  'Service/linkerd-policy-validator -n linkerd',
  'Deployment/linkerd-destination -n linkerd',
  'CronJob/linkerd-heartbeat -n linkerd',
  'Deployment/linkerd-proxy-injector -n linkerd',
  'Service/linkerd-proxy-injector -n linkerd',
  'Secret/linkerd-config-overrides -n linkerd',
];

describe('renderControlPlane: objects and order (as in install_default.golden)', () => {
  it('renders every object of a default install in the real CLI order, the overrides Secret last', async () => {
    expect((await render()).map(ref)).toEqual(DEFAULT_ORDER);
  });

  it('puts the three HA PodDisruptionBudgets after the Services of their component', async () => {
    const refs = (await render(haValues())).map(ref);
    const after = (pdb: string, prev: string) => expect(refs.indexOf(pdb)).toBe(refs.indexOf(prev) + 1);
    after('PodDisruptionBudget/linkerd-identity -n linkerd', 'Service/linkerd-identity-headless -n linkerd');
    after('PodDisruptionBudget/linkerd-dst -n linkerd', 'Service/linkerd-policy-validator -n linkerd');
    after('PodDisruptionBudget/linkerd-proxy-injector -n linkerd', 'Service/linkerd-proxy-injector -n linkerd');
    expect(refs.filter((r) => !r.startsWith('PodDisruptionBudget/'))).toEqual(DEFAULT_ORDER);
  });

  it('follows -L: every namespaced object and every RBAC subject is in the chosen namespace', async () => {
    const objects = await render(undefined, { namespace: 'mesh' });
    expect(objects[0].metadata.name).toBe('mesh');
    expect(objects.map((o) => o.metadata.name)).toContain('linkerd-mesh-identity');
    for (const o of objects) {
      if (o.metadata.namespace !== undefined) expect(o.metadata.namespace).toBe('mesh');
      for (const s of (o.subjects ?? []) as Array<{ namespace?: string }>) expect(s.namespace).toBe('mesh');
      expect(o.metadata.labels?.['linkerd.io/control-plane-ns'] ?? 'mesh').toBe('mesh');
    }
  });

  it('leaves out the heartbeat RBAC and CronJob with --disable-heartbeat', async () => {
    const refs = (await render(valuesWith(['disableHeartBeat=true']))).map(ref);
    expect(refs.filter((r) => r.includes('heartbeat'))).toEqual([]);
    expect(refs).toHaveLength(DEFAULT_ORDER.length - 6);
  });

  it('leaves out the trust-roots ConfigMap with identity.externalCA', async () => {
    const refs = (await render(valuesWith(['identity.externalCA=true']))).map(ref);
    expect(refs).not.toContain('ConfigMap/linkerd-identity-trust-roots -n linkerd');
  });

  it('leaves out the issuer Secret with an external issuer (kubernetes.io/tls)', async () => {
    const refs = (await render(valuesWith(['identity.issuer.scheme=kubernetes.io/tls']))).map(ref);
    expect(refs).not.toContain('Secret/linkerd-identity-issuer -n linkerd');
  });

  it('leaves out a webhook Secret when the webhook uses an external one', async () => {
    const values = valuesWith(['profileValidator.externalSecret=true', 'profileValidator.caBundle=CA']);
    const refs = (await render(values)).map(ref);
    expect(refs).not.toContain('Secret/linkerd-sp-validator-k8s-tls -n linkerd');
    expect(refs).toContain('ValidatingWebhookConfiguration/linkerd-sp-validator-webhook-config');
  });

  it('adds the linkerd-config-reader RoleBinding only when configReaders lists subjects', async () => {
    const values = valuesWith(['configReaders[0].name=linkerd-viz', 'configReaders[0].namespace=linkerd-viz']);
    const objects = await render(values);
    const refs = objects.map(ref);
    expect(refs[refs.indexOf('Role/ext-namespace-metadata-linkerd-config -n linkerd') + 1]).toBe('RoleBinding/linkerd-config-reader -n linkerd');
    const binding = objects.find((o) => o.metadata.name === 'linkerd-config-reader')!;
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'linkerd-viz', namespace: 'linkerd-viz' }]);
  });

  it('is pure: the same values and context give the same objects', async () => {
    expect(JSON.stringify(await render())).toBe(JSON.stringify(await render()));
  });
});
