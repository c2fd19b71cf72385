import type { Values } from '../../src/core/values/index.js';
import type { ControlPlaneContext } from './context.js';
import { componentLabels } from './metadata.js';
import { clusterRole, clusterRoleBinding, role, roleBinding, rule, serviceAccount } from './rbac.js';
import { LINKERD_CONFIG } from '../../src/core/mesh/names.js';

/** The heartbeat reads linkerd-config and counts namespaces and ServiceProfiles; nothing when disabled. */
export function heartbeatRbac(values: Values, ctx: ControlPlaneContext) {
  if (values.disableHeartBeat) return [];
  const labels = componentLabels(values, ctx);
  return [
    role('linkerd-heartbeat', ctx, labels, [rule([''], ['configmaps'], ['get'], [LINKERD_CONFIG])]),
    roleBinding('linkerd-heartbeat', ctx, labels, 'linkerd-heartbeat', 'linkerd-heartbeat'),
    clusterRole('linkerd-heartbeat', labels, [rule([''], ['namespaces'], ['list']), rule(['linkerd.io'], ['serviceprofiles'], ['list'])]),
    clusterRoleBinding('linkerd-heartbeat', labels, 'linkerd-heartbeat', 'linkerd-heartbeat', ctx),
    serviceAccount('linkerd-heartbeat', values, ctx, componentLabels(values, ctx, 'heartbeat')),
  ];
}
