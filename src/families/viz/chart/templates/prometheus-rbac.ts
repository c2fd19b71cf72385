import { rule } from '../../../../../templates/shared/rbac.js';
import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { clusterName, clusterRole, clusterRoleBinding, serviceAccount, vizLabels } from './meta.js';

/** Prometheus discovers pods and scrapes the kubelets' cAdvisor through the API server's node proxy. */
export function prometheusRbac(values: VizValues, ctx: VizContext) {
  if (!values.prometheus.enabled) return [];
  const labels = vizLabels(values, { component: 'prometheus' });
  const name = clusterName(ctx, 'prometheus');
  return [
    clusterRole(name, labels, [rule([''], ['nodes', 'nodes/proxy', 'pods'], ['get', 'list', 'watch'])]),
    clusterRoleBinding(name, labels, name, 'prometheus', ctx),
    serviceAccount('prometheus', values, ctx, vizLabels(values, { component: 'prometheus', namespace: ctx.namespace })),
  ];
}
