import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

type Obj = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  rules?: unknown[];
  subjects?: Array<{ name: string }>;
};
const docs = (stdout: string) => yaml.loadAll(stdout).filter((d): d is Obj => d !== null && typeof d === 'object');
const isPspObject = (o: Obj) => o.kind === 'PodSecurityPolicy' || o.metadata.name === 'linkerd-psp';

const NOTE = /^Warning: enablePSP renders a policy\/v1beta1 PodSecurityPolicy, which Kubernetes serves only before 1\.25[^\n]*\n$/;

describe('linkerd install --set enablePSP=true (CLI)', () => {
  it('prints the PSP, its Role and RoleBinding, and warns on stderr that PSPs need Kubernetes < 1.25', async () => {
    const r = await runCli(['install', '--ignore-cluster', '--set', 'enablePSP=true']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(NOTE);
    const objects = docs(r.stdout).filter(isPspObject);
    expect(objects.map((o) => [o.apiVersion, o.kind, o.metadata.name, o.metadata.namespace])).toEqual([
      ['policy/v1beta1', 'PodSecurityPolicy', 'linkerd-linkerd-control-plane', undefined],
      ['rbac.authorization.k8s.io/v1', 'Role', 'linkerd-psp', 'linkerd'],
      ['rbac.authorization.k8s.io/v1', 'RoleBinding', 'linkerd-psp', 'linkerd'],
    ]);
    const [psp, role, binding] = objects;
    expect(psp.metadata.annotations).toEqual({ 'seccomp.security.alpha.kubernetes.io/allowedProfileNames': 'runtime/default' });
    expect(psp.spec).toMatchObject({ allowPrivilegeEscalation: false, allowedCapabilities: ['NET_ADMIN', 'NET_RAW'], requiredDropCapabilities: ['ALL'] });
    expect(role.rules).toEqual([
      { apiGroups: ['policy', 'extensions'], resources: ['podsecuritypolicies'], verbs: ['use'], resourceNames: ['linkerd-linkerd-control-plane'] },
    ]);
    expect(binding.subjects!.map((s) => s.name)).toEqual(['linkerd-destination', 'linkerd-heartbeat', 'linkerd-identity', 'linkerd-proxy-injector']);
  });

  it('follows -L, --linkerd-cni-enabled and --disable-heartbeat, also in JSON', async () => {
    const r = await runCli([
      'install',
      '--ignore-cluster',
      '-L',
      'mesh',
      '--linkerd-cni-enabled',
      '--disable-heartbeat',
      '--set',
      'enablePSP=true',
      '-o',
      'json',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(NOTE);
    const objects = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Obj)
      .filter(isPspObject);
    const psp = objects.find((o) => o.kind === 'PodSecurityPolicy')!;
    expect(psp.metadata.name).toBe('linkerd-mesh-control-plane');
    expect(psp.spec!.allowedCapabilities).toBeUndefined();
    expect(psp.spec!.runAsUser).toEqual({ rule: 'MustRunAsNonRoot' });
    expect(objects.find((o) => o.kind === 'RoleBinding')!.subjects!.map((s) => s.name)).toEqual([
      'linkerd-destination',
      'linkerd-identity',
      'linkerd-proxy-injector',
    ]);
  });

  it('prints neither the objects nor the warning by default', async () => {
    const r = await runCli(['install', '--ignore-cluster']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(docs(r.stdout).filter(isPspObject)).toEqual([]);
    expect(r.stdout).not.toContain('PodSecurityPolicy');
  });
});
