import type { MulticlusterValues } from '../values.js';
import type { MulticlusterContext } from './context.js';
import { createdBy, labels, namespaced } from './metadata.js';
import { type PolicyObject, authorizationPolicy, policyRef, server } from './policy.js';
import { PROXY_PORT_NAME } from '../../../../core/mesh/names.js';

/*
 * The chart's gateway-policy.yaml: the gateway's proxy port admits only meshed clients (any
 * identity, since source clusters share the trust root) from the networks of NetworkAuthentication
 * `source-cluster` — every address by default; the chart's comment asks users to narrow it to the
 * source clusters' CIDRs.
 */

export function gatewayPolicy(values: MulticlusterValues, ctx: MulticlusterContext): PolicyObject[] {
  if (!values.gateway.enabled) return [];
  const meta = (name: string) => namespaced(name, ctx, labels(values, { app: values.gateway.name }), createdBy(values));
  return [
    server(meta('linkerd-gateway'), { matchLabels: { app: values.gateway.name } }, PROXY_PORT_NAME),
    authorizationPolicy(meta('linkerd-gateway'), 'linkerd-gateway', [
      policyRef('MeshTLSAuthentication', 'any-meshed', ctx.namespace),
      policyRef('NetworkAuthentication', 'source-cluster', ctx.namespace),
    ]),
    { apiVersion: 'policy.linkerd.io/v1alpha1', kind: 'MeshTLSAuthentication', metadata: meta('any-meshed'), spec: { identities: ['*'] } },
    {
      apiVersion: 'policy.linkerd.io/v1alpha1',
      kind: 'NetworkAuthentication',
      metadata: meta('source-cluster'),
      spec: { networks: [{ cidr: '0.0.0.0/0' }, { cidr: '::/0' }] },
    },
  ];
}
