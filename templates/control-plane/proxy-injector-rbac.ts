import type { Values } from '../../src/core/values/index.js';
import type { ControlPlaneContext } from './context.js';
import { componentLabels } from './metadata.js';
import { clusterRole, clusterRoleBinding, rule, serviceAccount } from './rbac.js';

const READ = ['list', 'get', 'watch'];

/** The injector looks up namespaces and pod owners to read their annotations. */
export function proxyInjectorRbac(values: Values, ctx: ControlPlaneContext) {
  const labels = componentLabels(values, ctx, 'proxy-injector');
  const name = `linkerd-${ctx.namespace}-proxy-injector`;
  return [
    clusterRole(name, labels, [
      rule([''], ['events'], ['create', 'patch']),
      rule([''], ['namespaces', 'replicationcontrollers'], READ),
      rule([''], ['pods'], ['list', 'watch']),
      rule(['extensions', 'apps'], ['deployments', 'replicasets', 'daemonsets', 'statefulsets'], READ),
      rule(['extensions', 'batch'], ['cronjobs', 'jobs'], READ),
    ]),
    clusterRoleBinding(name, labels, name, 'linkerd-proxy-injector', ctx, ''),
    serviceAccount('linkerd-proxy-injector', values, ctx, labels),
  ];
}
