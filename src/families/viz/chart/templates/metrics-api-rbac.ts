import { rule } from '../../../../../templates/shared/rbac.js';
import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { clusterName, clusterRole, clusterRoleBinding, serviceAccount, vizLabels } from './meta.js';

const READ = ['list', 'get', 'watch'];

/** The metrics API reads workloads and their pods to turn Prometheus series into per-resource stats. */
export function metricsApiRbac(values: VizValues, ctx: VizContext) {
  const labels = vizLabels(values, { component: 'metrics-api' });
  const name = clusterName(ctx, 'metrics-api');
  return [
    clusterRole(name, labels, [
      rule(['extensions', 'apps'], ['daemonsets', 'deployments', 'replicasets', 'statefulsets'], READ),
      rule(['extensions', 'batch'], ['cronjobs', 'jobs'], READ),
      rule([''], ['pods', 'endpoints', 'services', 'replicationcontrollers', 'namespaces'], READ),
      rule(['linkerd.io'], ['serviceprofiles'], READ),
    ]),
    clusterRoleBinding(name, labels, name, 'metrics-api', ctx),
    serviceAccount('metrics-api', values, ctx, labels),
  ];
}
