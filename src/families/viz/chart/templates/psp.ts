import type { Role, RoleBinding } from 'kubernetes-types/rbac/v1.js';
import { rule } from '../../../../../templates/shared/rbac.js';
import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { namespacedMeta, roleBinding, vizLabels } from './meta.js';

/**
 * With `enablePSP` (clusters before 1.25), a Role letting the viz ServiceAccounts use the
 * control plane's PodSecurityPolicy, and its RoleBinding.
 */
export function vizPsp(values: VizValues, ctx: VizContext): [Role, RoleBinding] | [] {
  if (!values.enablePSP) return [];
  const labels = vizLabels(values, { namespace: ctx.namespace });
  const role: Role = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: namespacedMeta('psp', ctx.namespace, labels),
    rules: [rule(['policy', 'extensions'], ['podsecuritypolicies'], ['use'], [`linkerd-${values.linkerdNamespace}-control-plane`])],
  };
  const accounts = ['tap', 'web', 'metrics-api', 'tap-injector', ...(values.prometheus.enabled ? ['prometheus'] : [])];
  return [role, roleBinding('viz-psp', ctx.namespace, labels, 'psp', accounts, ctx)];
}
