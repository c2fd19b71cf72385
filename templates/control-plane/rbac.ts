import type { ServiceAccount } from 'kubernetes-types/core/v1.js';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding } from 'kubernetes-types/rbac/v1.js';
import type { Values } from '../../src/core/values/index.js';
import type { ControlPlaneContext } from './context.js';
import { clusterMeta, namespacedMeta } from './metadata.js';

/*
 * Small builders shared by the per-component RBAC templates, so each of those reads as the list
 * of rules it grants.
 */

const RBAC_GROUP = 'rbac.authorization.k8s.io';

export { rule } from '../shared/rbac.js';

export function clusterRole(name: string, labels: Record<string, string>, rules: PolicyRule[]): ClusterRole {
  return { apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRole', metadata: clusterMeta(name, labels), rules };
}

/** `subjectApiGroup`: the chart spells out the core group (`apiGroup: ""`) on some subjects. */
export function clusterRoleBinding(
  name: string,
  labels: Record<string, string>,
  role: string,
  serviceAccount: string,
  ctx: ControlPlaneContext,
  subjectApiGroup?: '',
): ClusterRoleBinding {
  const subject = { kind: 'ServiceAccount', name: serviceAccount, namespace: ctx.namespace };
  return {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: clusterMeta(name, labels),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: role },
    subjects: [subjectApiGroup === undefined ? subject : { ...subject, apiGroup: subjectApiGroup }],
  };
}

export function role(name: string, ctx: ControlPlaneContext, labels: Record<string, string>, rules: PolicyRule[], annotations?: Record<string, string>): Role {
  return { apiVersion: `${RBAC_GROUP}/v1`, kind: 'Role', metadata: namespacedMeta(name, ctx, labels, annotations), rules };
}

export function roleBinding(name: string, ctx: ControlPlaneContext, labels: Record<string, string>, roleName: string, serviceAccount: string): RoleBinding {
  return {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: 'RoleBinding',
    metadata: namespacedMeta(name, ctx, labels),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: roleName },
    subjects: [{ kind: 'ServiceAccount', name: serviceAccount, namespace: ctx.namespace }],
  };
}

/** A control-plane ServiceAccount; image pull secrets go here, so every pod using it gets them. */
export function serviceAccount(name: string, values: Values, ctx: ControlPlaneContext, labels: Record<string, string>): ServiceAccount {
  const sa: ServiceAccount = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: namespacedMeta(name, ctx, labels) };
  if (values.imagePullSecrets.length) sa.imagePullSecrets = values.imagePullSecrets.map((s) => ({ name: s.name }));
  return sa;
}
