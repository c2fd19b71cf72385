import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import { CNI_RESOURCE_LABEL, CREATED_BY_ANNOTATION } from '../../../../core/mesh/names.js';
import { LINKERD_VERSION } from '../../../../core/version.js';
import type { CniValues } from '../values.js';

/*
 * What every linkerd2-cni object carries: `linkerd.io/cni-resource: "true"` (how the control
 * plane's checks tell CNI objects apart from its own) and the user's commonLabels.
 */

/** The render context: the namespace the chart renders into. */
export interface CniContext {
  namespace: string;
}

export function cniLabels(values: CniValues, extra: Record<string, string> = {}): Record<string, string> {
  return { ...extra, [CNI_RESOURCE_LABEL]: 'true', ...(values.commonLabels ?? {}) };
}

/** `linkerd/cli <version>` as the CLI sets it, else what Helm would write. */
export function createdBy(values: CniValues): Record<string, string> {
  return { [CREATED_BY_ANNOTATION]: values.cliVersion || `linkerd/helm ${LINKERD_VERSION}` };
}

export function namespaced(name: string, ctx: CniContext, labels: Record<string, string>): ObjectMeta {
  return { name, namespace: ctx.namespace, labels };
}
