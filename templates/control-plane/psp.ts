import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import type { Role, RoleBinding } from 'kubernetes-types/rbac/v1.js';
import type { Values } from '../../src/core/values/index.js';
import type { ControlPlaneContext } from './context.js';
import { clusterMeta, componentLabels, namespacedMeta } from './metadata.js';
import { role, rule } from './rbac.js';

/*
 * The chart's `psp.yaml`: with `enablePSP`, a PodSecurityPolicy the control-plane pods may run
 * under, and a Role + RoleBinding letting each control-plane ServiceAccount `use` it.
 * PodSecurityPolicy was removed in Kubernetes 1.25, so this is only for older clusters
 * (`linkerd install` says so on stderr). kubernetes-types no longer carries the type; the
 * fields below are those of `policy/v1beta1` that the chart sets.
 */

/** A `policy/v1beta1` ID range (inclusive). */
export interface IdRange {
  min: number;
  max: number;
}

export interface PodSecurityPolicy {
  apiVersion: 'policy/v1beta1';
  kind: 'PodSecurityPolicy';
  metadata: ObjectMeta;
  spec: {
    allowPrivilegeEscalation: boolean;
    readOnlyRootFilesystem: boolean;
    allowedCapabilities?: string[];
    requiredDropCapabilities: string[];
    hostNetwork: boolean;
    hostIPC: boolean;
    hostPID: boolean;
    seLinux: { rule: 'RunAsAny' };
    runAsUser: { rule: 'MustRunAsNonRoot' | 'RunAsAny' };
    runAsGroup: { rule: 'MustRunAs'; ranges: IdRange[] } | { rule: 'RunAsAny' };
    supplementalGroups: { rule: 'MustRunAs'; ranges: IdRange[] };
    fsGroup: { rule: 'MustRunAs'; ranges: IdRange[] };
    volumes: string[];
  };
}

const PSP_ROLE = 'linkerd-psp';
const SECCOMP_PROFILES = 'seccomp.security.alpha.kubernetes.io/allowedProfileNames';

/** `linkerd-<ns>-control-plane`: cluster-scoped, so the namespace keeps two installs apart. */
export function pspName(namespace: string): string {
  return `linkerd-${namespace}-control-plane`;
}

/**
 * With the CNI plugin no pod needs proxy-init's capabilities or root, so groups are narrowed to
 * non-system ranges too. proxy-init escalates when it runs as root or sets the close-wait timeout
 * (a sysctl).
 */
export function podSecurityPolicy(values: Values, ctx: ControlPlaneContext): PodSecurityPolicy {
  const cni = values.cniEnabled;
  const groups = (): { rule: 'MustRunAs'; ranges: IdRange[] } => ({ rule: 'MustRunAs', ranges: [cni ? { min: 10001, max: 65535 } : { min: 1, max: 65535 }] });
  return {
    apiVersion: 'policy/v1beta1',
    kind: 'PodSecurityPolicy',
    metadata: clusterMeta(pspName(ctx.namespace), componentLabels(values, ctx), { [SECCOMP_PROFILES]: 'runtime/default' }),
    spec: {
      allowPrivilegeEscalation: values.proxyInit.closeWaitTimeoutSecs > 0 || values.proxyInit.runAsRoot,
      readOnlyRootFilesystem: true,
      ...(cni ? {} : { allowedCapabilities: ['NET_ADMIN', 'NET_RAW'] }),
      requiredDropCapabilities: ['ALL'],
      hostNetwork: false,
      hostIPC: false,
      hostPID: false,
      seLinux: { rule: 'RunAsAny' },
      runAsUser: { rule: cni ? 'MustRunAsNonRoot' : 'RunAsAny' },
      runAsGroup: cni ? { rule: 'MustRunAs', ranges: [{ min: 1000, max: 999999 }] } : { rule: 'RunAsAny' },
      supplementalGroups: groups(),
      fsGroup: groups(),
      volumes: ['configMap', 'emptyDir', 'secret', 'projected', 'downwardAPI', 'persistentVolumeClaim'],
    },
  };
}

/** The control-plane ServiceAccounts this install renders (the heartbeat's only when it is). */
function controlPlaneServiceAccounts(values: Values): string[] {
  return ['linkerd-destination', ...(values.disableHeartBeat ? [] : ['linkerd-heartbeat']), 'linkerd-identity', 'linkerd-proxy-injector'];
}

/** Nothing unless `enablePSP`; then the PodSecurityPolicy, the `linkerd-psp` Role and its RoleBinding. */
export function podSecurityPolicyObjects(values: Values, ctx: ControlPlaneContext): [PodSecurityPolicy, Role, RoleBinding] | [] {
  if (!values.enablePSP) return [];
  const labels = componentLabels(values, ctx);
  const binding: RoleBinding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: namespacedMeta(PSP_ROLE, ctx, labels),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: PSP_ROLE },
    subjects: controlPlaneServiceAccounts(values).map((name) => ({ kind: 'ServiceAccount', name, namespace: ctx.namespace })),
  };
  return [
    podSecurityPolicy(values, ctx),
    role(PSP_ROLE, ctx, labels, [rule(['policy', 'extensions'], ['podsecuritypolicies'], ['use'], [pspName(ctx.namespace)])]),
    binding,
  ];
}
