import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import type { MulticlusterValues } from '../values.js';
import type { MulticlusterContext } from './context.js';
import { CREATED_BY_ANNOTATION, EXTENSION_LABEL } from '../../../../core/mesh/names.js';

/** The label every multicluster object carries; `check`, `uninstall` and `linkerd check` select on it. */
export { EXTENSION_LABEL };
export const EXTENSION = 'multicluster';
export const CREATED_BY = CREATED_BY_ANNOTATION;
export const CLUSTER_NAME_LABEL = 'mirror.linkerd.io/cluster-name';

/** The chart's `partials.annotations.created-by`: `cliVersion`, else `linkerd/helm <linkerdVersion>`. */
export function createdBy(values: MulticlusterValues): Record<string, string> {
  return { [CREATED_BY]: values.cliVersion || `linkerd/helm ${values.linkerdVersion}` };
}

/** The extension label, the object's own labels, then the user's commonLabels (the chart's order). */
export function labels(values: MulticlusterValues, own: Record<string, string> = {}): Record<string, string> {
  return { [EXTENSION_LABEL]: EXTENSION, ...own, ...values.commonLabels };
}

/** Metadata of a namespaced object in the release namespace. */
export function namespaced(name: string, ctx: MulticlusterContext, objectLabels: Record<string, string>, annotations?: Record<string, string>): ObjectMeta {
  const meta: ObjectMeta = { name, namespace: ctx.namespace, labels: objectLabels };
  if (annotations && Object.keys(annotations).length) meta.annotations = annotations;
  return meta;
}

/** Metadata of a cluster-scoped object. */
export function clusterScoped(name: string, objectLabels: Record<string, string>, annotations?: Record<string, string>): ObjectMeta {
  const meta: ObjectMeta = { name, labels: objectLabels };
  if (annotations && Object.keys(annotations).length) meta.annotations = annotations;
  return meta;
}
