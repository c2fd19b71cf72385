import type { Role, RoleBinding } from 'kubernetes-types/rbac/v1.js';
import type { MulticlusterValues } from '../values.js';
import type { MulticlusterContext } from './context.js';
import { labels } from './metadata.js';
import { role, roleBinding, rule } from './rbac.js';

/**
 * With `enablePSP` (clusters before Kubernetes 1.25): lets the gateway and the namespace-metadata
 * Job use the control plane's PodSecurityPolicy, `linkerd-<linkerd ns>-control-plane`.
 */
export function podSecurityPolicyAccess(values: MulticlusterValues, ctx: MulticlusterContext): [Role, RoleBinding] | [] {
  if (!values.enablePSP) return [];
  const pspName = `linkerd-${values.linkerdNamespace}-control-plane`;
  return [
    role('psp', ctx, labels(values), [rule(['policy', 'extensions'], ['podsecuritypolicies'], ['use'], [pspName])]),
    roleBinding('linkerd-multicluster-psp', ctx, labels(values, { namespace: ctx.namespace }), 'psp', [values.gateway.name, 'namespace-metadata']),
  ];
}
