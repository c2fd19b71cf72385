import { UserError } from '../../../core/errors.js';
import type { MulticlusterValues } from './values.js';
import type { MulticlusterContext } from './templates/context.js';
import { controllerClusterRole, controllerObjects, resolveController, type ResolvedController } from './templates/controllers.js';
import { gatewayObjects } from './templates/gateway.js';
import { gatewayPolicy } from './templates/gateway-policy.js';
import { linkCrd } from './templates/link-crd.js';
import { localServiceMirror } from './templates/local-service-mirror.js';
import { multiclusterNamespace } from './templates/namespace.js';
import { podSecurityPolicyAccess } from './templates/psp.js';
import { remoteAccess } from './templates/remote-access.js';
import { serviceMirrorPolicy } from './templates/service-mirror-policy.js';

export type { MulticlusterContext } from './templates/context.js';
export { cliContext, MULTICLUSTER_NAMESPACE } from './templates/context.js';

/** A Kubernetes object as rendered here: apiVersion, kind and metadata always set. */
export interface RenderedObject {
  apiVersion: string;
  kind: string;
  metadata: { name?: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

/** The chart's `fail`s, in its words, each prefixed with the value it is about. */
export function multiclusterValueProblems(values: MulticlusterValues): string[] {
  return values.controllers.flatMap((c, i) => (c.link?.ref?.name ? [] : [`controllers[${i}]: the value link.ref.name is required`]));
}

function resolvedControllers(values: MulticlusterValues): ResolvedController[] {
  const [problem] = multiclusterValueProblems(values);
  if (problem) throw new UserError(problem);
  return values.controllers.map((c) => resolveController(values, c, c.link?.ref?.name ?? ''));
}

/**
 * Every object of `linkerd multicluster install`, in the real CLI's order (its fixed template list:
 * namespace, gateway, gateway policy, PSP, remote access, Link CRD, admin policy, local service
 * mirror, controller ClusterRole, then the `controllers:` objects). Pure: same values, same objects.
 * Throws UserError when the values break one of the chart's rules.
 */
export function renderMulticluster(values: MulticlusterValues, ctx: MulticlusterContext): RenderedObject[] {
  const controllers = resolvedControllers(values);
  const objects: object[] = [
    ...multiclusterNamespace(values, ctx),
    ...gatewayObjects(values, ctx),
    ...gatewayPolicy(values, ctx),
    ...podSecurityPolicyAccess(values, ctx),
    ...remoteAccess(values, ctx),
    linkCrd(values),
    ...serviceMirrorPolicy(values, ctx),
    ...localServiceMirror(values, ctx),
    controllerClusterRole(values),
    ...controllerObjects(values, ctx, controllers),
  ];
  return objects as RenderedObject[];
}
