import type { ServiceAccount } from 'kubernetes-types/core/v1.js';
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, RoleBinding } from 'kubernetes-types/rbac/v1.js';
import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { CREATED_BY_ANNOTATION, EXTENSION_LABEL } from '../../../../core/mesh/names.js';

/*
 * Labels, annotations and the small RBAC builders every viz template uses. Every viz object
 * carries `linkerd.io/extension: viz` (how `viz uninstall`, `prune` and `check` find them) and the
 * user's commonLabels; most also name their `component`.
 */

export { EXTENSION_LABEL };
export const CREATED_BY = CREATED_BY_ANNOTATION;
export const EXTENSION = 'viz';
const RBAC = 'rbac.authorization.k8s.io';

export type VizComponent = 'metrics-api' | 'prometheus' | 'tap' | 'tap-injector' | 'web';

export interface LabelOptions {
  component?: VizComponent;
  /** The chart adds `namespace: <ns>` to some objects (tap's, web's, prometheus's, the ServiceAccounts). */
  namespace?: string;
}

export function vizLabels(values: VizValues, opts: LabelOptions = {}): Record<string, string> {
  const labels: Record<string, string> = { [EXTENSION_LABEL]: EXTENSION };
  if (opts.component) labels.component = opts.component;
  if (opts.namespace) labels.namespace = opts.namespace;
  return { ...labels, ...values.commonLabels };
}

/** The selector a component's Service, policy Server and PDB use. */
export function componentSelector(component: VizComponent, namespace?: string): Record<string, string> {
  return { [EXTENSION_LABEL]: EXTENSION, component, ...(namespace ? { namespace } : {}) };
}

/** `linkerd/cli <version>` as set by the CLI, else what Helm would write. */
export function createdBy(values: VizValues): string {
  return values.cliVersion || `linkerd/helm ${values.linkerdVersion}`;
}

export function createdByAnnotation(values: VizValues): Record<string, string> {
  return { [CREATED_BY]: createdBy(values) };
}

export function clusterMeta(name: string, labels: Record<string, string>, annotations?: Record<string, string>): ObjectMeta {
  return annotations && Object.keys(annotations).length ? { name, labels, annotations } : { name, labels };
}

export function namespacedMeta(name: string, namespace: string, labels: Record<string, string>, annotations?: Record<string, string>): ObjectMeta {
  const meta: ObjectMeta = { name, namespace, labels };
  if (annotations && Object.keys(annotations).length) meta.annotations = annotations;
  return meta;
}

/** `linkerd-<viz namespace>-<what>`: cluster-scoped names carry the namespace so two installs stay apart. */
export function clusterName(ctx: VizContext, what: string): string {
  return `linkerd-${ctx.namespace}-${what}`;
}

export function clusterRole(name: string, labels: Record<string, string>, rules: PolicyRule[]): ClusterRole {
  return { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: clusterMeta(name, labels), rules };
}

export function clusterRoleBinding(name: string, labels: Record<string, string>, role: string, serviceAccount: string, ctx: VizContext): ClusterRoleBinding {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: clusterMeta(name, labels),
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
    subjects: [{ kind: 'ServiceAccount', name: serviceAccount, namespace: ctx.namespace }],
  };
}

export function roleBinding(
  name: string,
  namespace: string,
  labels: Record<string, string>,
  role: string,
  serviceAccounts: string[],
  ctx: VizContext,
): RoleBinding {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'RoleBinding',
    metadata: namespacedMeta(name, namespace, labels),
    roleRef: { apiGroup: RBAC, kind: 'Role', name: role },
    subjects: serviceAccounts.map((sa) => ({ kind: 'ServiceAccount', name: sa, namespace: ctx.namespace })),
  };
}

/** A viz ServiceAccount; image pull secrets go here, so every pod using it gets them. */
export function serviceAccount(name: string, values: VizValues, ctx: VizContext, labels: Record<string, string>): ServiceAccount {
  const sa: ServiceAccount = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: namespacedMeta(name, ctx.namespace, labels) };
  if (values.imagePullSecrets.length) sa.imagePullSecrets = values.imagePullSecrets.map((s) => ({ name: s.name }));
  return sa;
}
