import type { Values } from '../../src/core/values/index.js';
import type { ControlPlaneContext } from './context.js';
import { componentLabels } from './metadata.js';
import { clusterRole, clusterRoleBinding, rule, serviceAccount } from './rbac.js';

/** The identity controller reviews ServiceAccount tokens and reports issuer events. */
export function identityRbac(values: Values, ctx: ControlPlaneContext) {
  const labels = componentLabels(values, ctx, 'identity');
  const name = `linkerd-${ctx.namespace}-identity`;
  return [
    clusterRole(name, labels, [rule(['authentication.k8s.io'], ['tokenreviews'], ['create']), rule([''], ['events'], ['create', 'patch'])]),
    clusterRoleBinding(name, labels, name, 'linkerd-identity', ctx),
    serviceAccount('linkerd-identity', values, ctx, labels),
  ];
}
