import type { ServiceAccount } from 'kubernetes-types/core/v1.js';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding } from 'kubernetes-types/rbac/v1.js';
import type { MulticlusterValues } from '../values.js';
import type { MulticlusterContext } from './context.js';
import { clusterScoped, namespaced } from './metadata.js';

export { rule } from '../../../../../templates/shared/rbac.js';

const RBAC = 'rbac.authorization.k8s.io';

/** A ServiceAccount in the release namespace; image pull secrets go here, so every pod using it gets them. */
export function serviceAccount(
  name: string,
  values: MulticlusterValues,
  ctx: MulticlusterContext,
  objectLabels: Record<string, string>,
  annotations?: Record<string, string>,
): ServiceAccount {
  const sa: ServiceAccount = { kind: 'ServiceAccount', apiVersion: 'v1', metadata: namespaced(name, ctx, objectLabels, annotations) };
  if (values.imagePullSecrets.length) sa.imagePullSecrets = values.imagePullSecrets.map((s) => ({ name: s.name }));
  return sa;
}

export function clusterRole(name: string, objectLabels: Record<string, string>, rules: PolicyRule[], annotations?: Record<string, string>): ClusterRole {
  return { kind: 'ClusterRole', apiVersion: `${RBAC}/v1`, metadata: clusterScoped(name, objectLabels, annotations), rules };
}

/** Binds a ClusterRole to one ServiceAccount of the release namespace. */
export function clusterRoleBinding(
  name: string,
  objectLabels: Record<string, string>,
  roleName: string,
  account: string,
  ctx: MulticlusterContext,
  annotations?: Record<string, string>,
): ClusterRoleBinding {
  return {
    kind: 'ClusterRoleBinding',
    apiVersion: `${RBAC}/v1`,
    metadata: clusterScoped(name, objectLabels, annotations),
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName },
    subjects: [{ kind: 'ServiceAccount', name: account, namespace: ctx.namespace }],
  };
}

export function role(name: string, ctx: MulticlusterContext, objectLabels: Record<string, string>, rules: PolicyRule[]): Role {
  return { kind: 'Role', apiVersion: `${RBAC}/v1`, metadata: namespaced(name, ctx, objectLabels), rules };
}

/** Binds a Role to ServiceAccounts of the release namespace. */
export function roleBinding(name: string, ctx: MulticlusterContext, objectLabels: Record<string, string>, roleName: string, accounts: string[]): RoleBinding {
  return {
    kind: 'RoleBinding',
    apiVersion: `${RBAC}/v1`,
    metadata: namespaced(name, ctx, objectLabels),
    roleRef: { apiGroup: RBAC, kind: 'Role', name: roleName },
    subjects: accounts.map((account) => ({ kind: 'ServiceAccount', name: account, namespace: ctx.namespace })),
  };
}
