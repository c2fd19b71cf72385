import type { Role } from 'kubernetes-types/rbac/v1.js';
import { rule } from '../../../../../templates/shared/rbac.js';
import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { clusterName, clusterRole, clusterRoleBinding, namespacedMeta, roleBinding, serviceAccount, vizLabels } from './meta.js';
import { LINKERD_CONFIG } from '../../../../core/mesh/names.js';

/**
 * The dashboard reads linkerd-config in the control-plane namespace; unless
 * `dashboard.restrictPrivileges`, it may also run checks (list cluster objects) and tap.
 */
export function webRbac(values: VizValues, ctx: VizContext) {
  const restricted = values.dashboard.restrictPrivileges;
  const cp = values.linkerdNamespace;
  const cpLabels = vizLabels(values, { component: 'web', namespace: cp });
  const labels = vizLabels(values, { component: 'web' });
  const role: Role = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: namespacedMeta('web', cp, cpLabels),
    rules: [
      rule([''], ['configmaps'], ['get'], [LINKERD_CONFIG]),
      ...(restricted
        ? []
        : [rule([''], ['namespaces', 'configmaps'], ['get']), rule([''], ['serviceaccounts', 'pods'], ['list']), rule(['apps'], ['replicasets'], ['list'])]),
    ],
  };
  const check = clusterName(ctx, 'web-check');
  const api = clusterName(ctx, 'web-api');
  const privileged = restricted
    ? []
    : [
        clusterRole(check, labels, [
          rule(['rbac.authorization.k8s.io'], ['clusterroles', 'clusterrolebindings'], ['list']),
          rule(['apiextensions.k8s.io'], ['customresourcedefinitions'], ['list']),
          rule(['admissionregistration.k8s.io'], ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'], ['list']),
          rule(['policy'], ['podsecuritypolicies'], ['list']),
          rule(['linkerd.io'], ['serviceprofiles'], ['list']),
          rule(['apiregistration.k8s.io'], ['apiservices'], ['get']),
        ]),
        clusterRoleBinding(check, labels, check, 'web', ctx),
        clusterRoleBinding(clusterName(ctx, 'web-admin'), labels, clusterName(ctx, 'tap-admin'), 'web', ctx),
        clusterRole(api, labels, [rule([''], ['namespaces'], ['list'])]),
        clusterRoleBinding(api, labels, api, 'web', ctx),
      ];
  return [
    role,
    roleBinding('web', cp, cpLabels, 'web', ['web'], ctx),
    ...privileged,
    serviceAccount('web', values, ctx, vizLabels(values, { component: 'web', namespace: ctx.namespace })),
  ];
}
