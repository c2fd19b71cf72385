/** The CRD facts of linkerd's install_crds.golden and its Gateway API CRDs, written out independently of the templates under test. */
export interface CrdRow {
  name: string;
  group: string;
  kind: string;
  versions: string[];
  storage: string;
}

/** `linkerd install --crds` without Gateway API, in output order. */
export const LINKERD_CRDS: CrdRow[] = [
  { name: 'authorizationpolicies.policy.linkerd.io', group: 'policy.linkerd.io', kind: 'AuthorizationPolicy', versions: ['v1alpha1'], storage: 'v1alpha1' },
  { name: 'egressnetworks.policy.linkerd.io', group: 'policy.linkerd.io', kind: 'EgressNetwork', versions: ['v1alpha1'], storage: 'v1alpha1' },
  {
    name: 'httplocalratelimitpolicies.policy.linkerd.io',
    group: 'policy.linkerd.io',
    kind: 'HTTPLocalRateLimitPolicy',
    versions: ['v1alpha1'],
    storage: 'v1alpha1',
  },
  {
    name: 'httproutes.policy.linkerd.io',
    group: 'policy.linkerd.io',
    kind: 'HTTPRoute',
    versions: ['v1alpha1', 'v1beta1', 'v1beta2', 'v1beta3'],
    storage: 'v1beta3',
  },
  { name: 'meshtlsauthentications.policy.linkerd.io', group: 'policy.linkerd.io', kind: 'MeshTLSAuthentication', versions: ['v1alpha1'], storage: 'v1alpha1' },
  { name: 'networkauthentications.policy.linkerd.io', group: 'policy.linkerd.io', kind: 'NetworkAuthentication', versions: ['v1alpha1'], storage: 'v1alpha1' },
  {
    name: 'serverauthorizations.policy.linkerd.io',
    group: 'policy.linkerd.io',
    kind: 'ServerAuthorization',
    versions: ['v1alpha1', 'v1beta1'],
    storage: 'v1beta1',
  },
  {
    name: 'servers.policy.linkerd.io',
    group: 'policy.linkerd.io',
    kind: 'Server',
    versions: ['v1alpha1', 'v1beta1', 'v1beta2', 'v1beta3'],
    storage: 'v1beta3',
  },
  { name: 'serviceprofiles.linkerd.io', group: 'linkerd.io', kind: 'ServiceProfile', versions: ['v1alpha1', 'v1alpha2'], storage: 'v1alpha2' },
  {
    name: 'externalworkloads.workload.linkerd.io',
    group: 'workload.linkerd.io',
    kind: 'ExternalWorkload',
    versions: ['v1alpha1', 'v1beta1'],
    storage: 'v1beta1',
  },
];

/**
 * The Gateway API CRDs, inserted after serviceprofiles. Upstream lists the stored v1 before
 * the older version, so version order here is the chart's, not the spec's prose.
 */
export const GATEWAY_CRDS: CrdRow[] = [
  { name: 'httproutes.gateway.networking.k8s.io', group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', versions: ['v1', 'v1beta1'], storage: 'v1' },
  { name: 'grpcroutes.gateway.networking.k8s.io', group: 'gateway.networking.k8s.io', kind: 'GRPCRoute', versions: ['v1', 'v1alpha2'], storage: 'v1' },
  { name: 'tlsroutes.gateway.networking.k8s.io', group: 'gateway.networking.k8s.io', kind: 'TLSRoute', versions: ['v1alpha2'], storage: 'v1alpha2' },
  { name: 'tcproutes.gateway.networking.k8s.io', group: 'gateway.networking.k8s.io', kind: 'TCPRoute', versions: ['v1alpha2'], storage: 'v1alpha2' },
];

export const WITH_GATEWAY_API: CrdRow[] = [...LINKERD_CRDS.slice(0, 9), ...GATEWAY_CRDS, ...LINKERD_CRDS.slice(9)];

export const CTX = { namespace: 'linkerd', cliVersion: 'edge-26.9.1', chartVersion: '2026.9.1' };
