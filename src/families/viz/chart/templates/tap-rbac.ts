import { rule } from '../../../../../templates/shared/rbac.js';
import { certManagerAnnotations } from '../../../../../templates/shared/webhookTls.js';
import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { clusterMeta, clusterName, clusterRole, clusterRoleBinding, roleBinding, serviceAccount, vizLabels } from './meta.js';
import { caBundleOf, servingSecret } from './tls.js';

const READ = ['list', 'get', 'watch'];

/** kubernetes-types has no kube-aggregator types; the fields of apiregistration.k8s.io/v1 the chart sets. */
export interface APIService {
  apiVersion: 'apiregistration.k8s.io/v1';
  kind: 'APIService';
  metadata: ReturnType<typeof clusterMeta>;
  spec: {
    group: string;
    version: string;
    groupPriorityMinimum: number;
    versionPriority: number;
    service: { name: string; namespace: string };
    caBundle?: string;
  };
}

/**
 * Tap serves `tap.linkerd.io` as an aggregated API: the API server authenticates the user, checks
 * their `watch` right on the resource, and forwards to the tap Service, which it trusts through
 * the APIService's caBundle. Tap delegates authentication and reads the API server's client CA.
 */
export function tapRbac(values: VizValues, ctx: VizContext) {
  const labels = vizLabels(values, { component: 'tap' });
  const nsLabels = vizLabels(values, { component: 'tap', namespace: ctx.namespace });
  const tap = clusterName(ctx, 'tap');
  const objects: object[] = [
    clusterRole(tap, labels, [
      rule([''], ['pods', 'services', 'replicationcontrollers', 'namespaces', 'nodes'], READ),
      rule(['extensions', 'apps'], ['daemonsets', 'deployments', 'replicasets', 'statefulsets'], READ),
      rule(['extensions', 'batch'], ['cronjobs', 'jobs'], READ),
    ]),
    clusterRole(`${tap}-admin`, labels, [rule([''], ['namespaces'], ['list']), rule(['tap.linkerd.io'], ['*'], ['watch'])]),
    clusterRoleBinding(tap, labels, tap, 'tap', ctx),
    clusterRoleBinding(`${tap}-auth-delegator`, labels, 'system:auth-delegator', 'tap', ctx),
    serviceAccount('tap', values, ctx, nsLabels),
    roleBinding(`${tap}-auth-reader`, 'kube-system', nsLabels, 'extension-apiserver-authentication-reader', ['tap'], ctx),
  ];
  if (!values.tap.externalSecret) {
    objects.push(servingSecret('tap', 'tap-k8s-tls', nsLabels, values, ctx));
  }
  const apiService: APIService = {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: clusterMeta('v1alpha1.tap.linkerd.io', labels, certManagerAnnotations(values.tap)),
    spec: {
      group: 'tap.linkerd.io',
      version: 'v1alpha1',
      groupPriorityMinimum: 1000,
      versionPriority: 100,
      service: { name: 'tap', namespace: ctx.namespace },
    },
  };
  const caBundle = caBundleOf('tap', values, ctx);
  if (caBundle !== undefined) apiService.spec.caBundle = caBundle;
  objects.push(apiService);
  return objects;
}
