import type { ServiceAccount } from 'kubernetes-types/core/v1.js';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding } from 'kubernetes-types/rbac/v1.js';
import { rule } from '../../../../../templates/shared/rbac.js';
import { CNI_NAME } from '../../../../core/mesh/names.js';
import type { CniValues } from '../values.js';
import { type CniContext, cniLabels, namespaced } from './meta.js';

const RBAC = 'rbac.authorization.k8s.io';

const subject = (ctx: CniContext) => [{ kind: 'ServiceAccount', name: CNI_NAME, namespace: ctx.namespace }];

export function cniServiceAccount(values: CniValues, ctx: CniContext): ServiceAccount {
  const sa: ServiceAccount = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: namespaced(CNI_NAME, ctx, cniLabels(values)) };
  if (values.imagePullSecrets?.length) sa.imagePullSecrets = values.imagePullSecrets;
  return sa;
}

/** With `enablePSP`: a PodSecurityPolicy (policy/v1beta1, gone since Kubernetes 1.25) and the Role binding its use. */
export function cniPsp(values: CniValues, ctx: CniContext): object[] {
  if (!values.enablePSP) return [];
  const pspName = `linkerd-${ctx.namespace}-cni`;
  const runAsAny = { rule: 'RunAsAny' };
  const psp = {
    apiVersion: 'policy/v1beta1',
    kind: 'PodSecurityPolicy',
    metadata: {
      name: pspName,
      annotations: { 'seccomp.security.alpha.kubernetes.io/allowedProfileNames': 'runtime/default' },
      labels: cniLabels(values),
    },
    spec: {
      ...(values.privileged ? {} : { allowPrivilegeEscalation: false }),
      fsGroup: runAsAny,
      runAsUser: runAsAny,
      runAsGroup: runAsAny,
      seLinux: runAsAny,
      supplementalGroups: runAsAny,
      volumes: ['hostPath', 'secret', 'emptyDir'],
    },
  };
  const role: Role = {
    apiVersion: `${RBAC}/v1`,
    kind: 'Role',
    metadata: namespaced(CNI_NAME, ctx, cniLabels(values)),
    rules: [rule(['extensions', 'policy'], ['podsecuritypolicies'], ['use'], [pspName])],
  };
  const binding: RoleBinding = {
    apiVersion: `${RBAC}/v1`,
    kind: 'RoleBinding',
    metadata: namespaced(CNI_NAME, ctx, cniLabels(values)),
    roleRef: { apiGroup: RBAC, kind: 'Role', name: CNI_NAME },
    subjects: subject(ctx),
  };
  return [psp, role, binding];
}

/** Reads pods, nodes, namespaces and services; the repair controller also deletes pods and records events. */
export function cniClusterRole(values: CniValues): ClusterRole {
  const rules: PolicyRule[] = [rule([''], ['pods', 'nodes', 'namespaces', 'services'], ['list', 'get', 'watch'])];
  if (values.repairController.enabled) rules.push(rule([''], ['pods'], ['delete']), rule(['events.k8s.io'], ['events'], ['create']));
  return { kind: 'ClusterRole', apiVersion: `${RBAC}/v1`, metadata: { name: CNI_NAME, labels: cniLabels(values) }, rules };
}

export function cniClusterRoleBinding(values: CniValues, ctx: CniContext): ClusterRoleBinding {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name: CNI_NAME, labels: cniLabels(values) },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: CNI_NAME },
    subjects: subject(ctx),
  };
}
