import { PodSecurityPolicy as PodSecurityPolicyModel } from 'kubernetes-models/policy/v1beta1';
import { Role as RoleModel, RoleBinding as RoleBindingModel } from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import type { Role, RoleBinding } from 'kubernetes-types/rbac/v1.js';
import { describe, expect, it } from 'vitest';
import { PSP_NOTE, renderInstall } from '../../../src/core/install/renderInstall.js';
import type { RenderedObject } from '../../../templates/control-plane/index.js';
import { type PodSecurityPolicy, podSecurityPolicy } from '../../../templates/control-plane/psp.js';
import { find, pinnedContext, render, valuesWith } from '../../core/install/support.js';

const ENABLED = ['enablePSP=true'];
const PSP = 'linkerd-linkerd-control-plane';

const ref = (o: { kind: string; metadata: { name?: string } }) => `${o.kind}/${o.metadata.name}`;
const pspOf = (objects: RenderedObject[]) => find<PodSecurityPolicy>(objects, 'PodSecurityPolicy', PSP);
const subjectsOf = (objects: RenderedObject[]) => find<RoleBinding>(objects, 'RoleBinding', 'linkerd-psp').subjects!.map((s) => s.name);

describe('psp: PodSecurityPolicy for the control plane (chart psp.yaml, enablePSP)', () => {
  it('renders nothing by default', async () => {
    const objects = await render();
    expect(objects.filter((o) => o.kind === 'PodSecurityPolicy' || o.metadata.name === 'linkerd-psp')).toEqual([]);
  });

  it('renders the PSP, Role and RoleBinding between the proxy-injector RBAC and linkerd-config, changing nothing else', async () => {
    const plain = (await render()).map(ref);
    const refs = (await render(valuesWith(ENABLED))).map(ref);
    const at = refs.indexOf(`PodSecurityPolicy/${PSP}`);
    expect(refs.slice(at - 1, at + 4)).toEqual([
      'MutatingWebhookConfiguration/linkerd-proxy-injector-webhook-config',
      `PodSecurityPolicy/${PSP}`,
      'Role/linkerd-psp',
      'RoleBinding/linkerd-psp',
      'ConfigMap/linkerd-config',
    ]);
    expect(refs.filter((r) => !r.includes(PSP) && !r.endsWith('/linkerd-psp'))).toEqual(plain);
  });

  it('makes a cluster-scoped policy/v1beta1 PSP named after the namespace, with the seccomp annotation and commonLabels', async () => {
    const objects = await render(valuesWith([...ENABLED, 'commonLabels.team=mesh']), { namespace: 'mesh' });
    const psp = find<PodSecurityPolicy>(objects, 'PodSecurityPolicy', 'linkerd-mesh-control-plane');
    expect(psp.apiVersion).toBe('policy/v1beta1');
    expect(psp.metadata).toEqual({
      name: 'linkerd-mesh-control-plane',
      labels: { 'linkerd.io/control-plane-ns': 'mesh', team: 'mesh' },
      annotations: { 'seccomp.security.alpha.kubernetes.io/allowedProfileNames': 'runtime/default' },
    });
    for (const kind of ['Role', 'RoleBinding']) {
      expect(find(objects, kind, 'linkerd-psp').metadata).toEqual({
        name: 'linkerd-psp',
        namespace: 'mesh',
        labels: { 'linkerd.io/control-plane-ns': 'mesh', team: 'mesh' },
      });
    }
  });

  it('without CNI: proxy-init capabilities, any user and group, groups from 1, no escalation', async () => {
    expect(pspOf(await render(valuesWith(ENABLED))).spec).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      allowedCapabilities: ['NET_ADMIN', 'NET_RAW'],
      requiredDropCapabilities: ['ALL'],
      hostNetwork: false,
      hostIPC: false,
      hostPID: false,
      seLinux: { rule: 'RunAsAny' },
      runAsUser: { rule: 'RunAsAny' },
      runAsGroup: { rule: 'RunAsAny' },
      supplementalGroups: { rule: 'MustRunAs', ranges: [{ min: 1, max: 65535 }] },
      fsGroup: { rule: 'MustRunAs', ranges: [{ min: 1, max: 65535 }] },
      volumes: ['configMap', 'emptyDir', 'secret', 'projected', 'downwardAPI', 'persistentVolumeClaim'],
    });
  });

  it('with CNI: no added capabilities, non-root users, groups narrowed to non-system ranges', async () => {
    const spec = pspOf(await render(valuesWith([...ENABLED, 'cniEnabled=true']))).spec;
    expect(spec.allowedCapabilities).toBeUndefined();
    expect(spec.requiredDropCapabilities).toEqual(['ALL']);
    expect(spec.runAsUser).toEqual({ rule: 'MustRunAsNonRoot' });
    expect(spec.runAsGroup).toEqual({ rule: 'MustRunAs', ranges: [{ min: 1000, max: 999999 }] });
    expect(spec.supplementalGroups).toEqual({ rule: 'MustRunAs', ranges: [{ min: 10001, max: 65535 }] });
    expect(spec.fsGroup).toEqual({ rule: 'MustRunAs', ranges: [{ min: 10001, max: 65535 }] });
  });

  it('allows privilege escalation only when proxy-init runs as root or sets the close-wait timeout', async () => {
    const escalates = async (set: string[]) => pspOf(await render(valuesWith([...ENABLED, ...set]))).spec.allowPrivilegeEscalation;
    expect(await escalates([])).toBe(false);
    expect(await escalates(['proxyInit.runAsRoot=false', 'proxyInit.closeWaitTimeoutSecs=0'])).toBe(false);
    expect(await escalates(['proxyInit.runAsRoot=true'])).toBe(true);
    expect(await escalates(['proxyInit.runAsRoot=true', 'proxyInit.closeWaitTimeoutSecs=60'])).toBe(true);
    // A whole render refuses the timeout without root (proxy-init's own rule); the PSP alone still follows the chart's `or`.
    const ctx = await pinnedContext();
    expect(podSecurityPolicy(valuesWith([...ENABLED, 'proxyInit.closeWaitTimeoutSecs=60']), ctx).spec.allowPrivilegeEscalation).toBe(true);
    expect(podSecurityPolicy(valuesWith(ENABLED), ctx).spec.allowPrivilegeEscalation).toBe(false);
  });

  it('lets the control plane use that PSP (and no other) through the policy and extensions groups', async () => {
    const role = find<Role>(await render(valuesWith(ENABLED), { namespace: 'mesh' }), 'Role', 'linkerd-psp');
    expect(role.rules).toEqual([
      { apiGroups: ['policy', 'extensions'], resources: ['podsecuritypolicies'], verbs: ['use'], resourceNames: ['linkerd-mesh-control-plane'] },
    ]);
  });

  it('binds the Role to every control-plane ServiceAccount the install renders, the heartbeat only with it', async () => {
    const objects = await render(valuesWith(ENABLED), { namespace: 'mesh' });
    const binding = find<RoleBinding>(objects, 'RoleBinding', 'linkerd-psp');
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'linkerd-psp' });
    expect(binding.subjects).toEqual(
      ['linkerd-destination', 'linkerd-heartbeat', 'linkerd-identity', 'linkerd-proxy-injector'].map((name) => ({
        kind: 'ServiceAccount',
        name,
        namespace: 'mesh',
      })),
    );
    // Exactly the ServiceAccounts rendered, with or without the heartbeat.
    for (const set of [ENABLED, [...ENABLED, 'disableHeartBeat=true']]) {
      const all = await render(valuesWith(set));
      const accounts = all.filter((o) => o.kind === 'ServiceAccount').map((o) => o.metadata.name);
      expect([...subjectsOf(all)].sort()).toEqual([...accounts].sort());
    }
    expect(subjectsOf(await render(valuesWith([...ENABLED, 'disableHeartBeat=true'])))).toEqual([
      'linkerd-destination',
      'linkerd-identity',
      'linkerd-proxy-injector',
    ]);
  });

  it('validates against the Kubernetes schemas of policy/v1beta1 and rbac/v1 (kubernetes-models), with and without CNI', async () => {
    for (const set of [ENABLED, [...ENABLED, 'cniEnabled=true', 'disableHeartBeat=true']]) {
      const objects = await render(valuesWith(set));
      const json = (o: unknown) => JSON.parse(JSON.stringify(o));
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the chart still renders policy/v1beta1 PSPs under enablePSP
      expect(() => new PodSecurityPolicyModel(json(pspOf(objects))).validate()).not.toThrow();
      expect(() => new RoleModel(json(find(objects, 'Role', 'linkerd-psp'))).validate()).not.toThrow();
      expect(() => new RoleBindingModel(json(find(objects, 'RoleBinding', 'linkerd-psp'))).validate()).not.toThrow();
    }
    // The validator is live: a PSP without its required user strategy is rejected.
    const broken = JSON.parse(JSON.stringify(pspOf(await render(valuesWith(ENABLED)))));
    delete broken.spec.runAsUser;
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- as above
    expect(() => new PodSecurityPolicyModel(broken).validate()).toThrow();
  });
});

describe('install with enablePSP: the Kubernetes < 1.25 note', () => {
  const request = (set: string[]) => ({ namespace: 'linkerd', crds: false, flags: [], valuesFiles: [], set, setString: [], setFile: [] });

  it('adds one stderr line saying PodSecurityPolicy is served only before Kubernetes 1.25', async () => {
    const result = await renderInstall(request(ENABLED));
    expect(result.notes).toEqual([PSP_NOTE]);
    expect(PSP_NOTE).toMatch(/^Warning: enablePSP renders a policy\/v1beta1 PodSecurityPolicy, which Kubernetes serves only before 1\.25[^\n]*$/);
    expect(result.objects.map(ref)).toContain(`PodSecurityPolicy/${PSP}`);
  });

  it('adds nothing by default or with enablePSP=false', async () => {
    expect((await renderInstall(request([]))).notes).toEqual([]);
    expect((await renderInstall(request(['enablePSP=false']))).notes).toEqual([]);
  });
});
