import type { Values } from '../../src/core/values/index.js';
import type { ControlPlaneContext } from './context.js';
import { componentLabels } from './metadata.js';
import { clusterRole, clusterRoleBinding, role, roleBinding, rule, serviceAccount } from './rbac.js';

const READ = ['list', 'get', 'watch'];

/** The destination controller watches workloads and endpoints, and writes EndpointSlices for external workloads. */
export function destinationRbac(values: Values, ctx: ControlPlaneContext) {
  const labels = componentLabels(values, ctx, 'destination');
  const name = `linkerd-${ctx.namespace}-destination`;
  return [
    clusterRole(name, labels, [
      rule(['apps'], ['replicasets'], READ),
      rule(['batch'], ['jobs'], READ),
      rule([''], ['pods', 'endpoints', 'services', 'nodes'], READ),
      rule(['linkerd.io'], ['serviceprofiles'], READ),
      rule(['workload.linkerd.io'], ['externalworkloads'], READ),
      rule(['coordination.k8s.io'], ['leases'], ['create', 'get', 'update', 'patch']),
      rule(['discovery.k8s.io'], ['endpointslices'], [...READ, 'create', 'update', 'patch', 'delete']),
    ]),
    clusterRoleBinding(name, labels, name, 'linkerd-destination', ctx),
    serviceAccount('linkerd-destination', values, ctx, labels),
  ];
}

/** The policy controller (in the destination pod) reads policy resources and writes route statuses. */
export function policyRbac(values: Values, ctx: ControlPlaneContext) {
  const labels = componentLabels(values, ctx, 'destination', { 'app.kubernetes.io/part-of': 'Linkerd' });
  const policyKinds = [
    'authorizationpolicies',
    'httplocalratelimitpolicies',
    'httproutes',
    'meshtlsauthentications',
    'networkauthentications',
    'servers',
    'serverauthorizations',
    'egressnetworks',
  ];
  const gatewayRoutes = ['httproutes', 'grpcroutes', 'tlsroutes', 'tcproutes'];
  const REV = ['get', 'list', 'watch'];
  return [
    clusterRole('linkerd-policy', labels, [
      rule([''], ['pods'], REV),
      rule(['apps'], ['deployments'], ['get']),
      rule(['policy.linkerd.io'], policyKinds, REV),
      rule(['gateway.networking.k8s.io'], gatewayRoutes, REV),
      rule(['policy.linkerd.io'], ['httproutes/status', 'httplocalratelimitpolicies/status', 'egressnetworks/status'], ['patch']),
      rule(
        ['gateway.networking.k8s.io'],
        gatewayRoutes.map((r) => `${r}/status`),
        ['patch'],
      ),
      rule(['workload.linkerd.io'], ['externalworkloads'], REV),
      rule(['coordination.k8s.io'], ['leases'], ['create', 'get', 'patch']),
    ]),
    clusterRoleBinding('linkerd-destination-policy', labels, 'linkerd-policy', 'linkerd-destination', ctx),
    role('remote-discovery', ctx, labels, [rule([''], ['secrets'], REV)]),
    roleBinding('linkerd-destination-remote-discovery', ctx, labels, 'remote-discovery', 'linkerd-destination'),
  ];
}
