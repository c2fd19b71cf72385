import type { LabelSelector, ObjectMeta } from 'kubernetes-types/meta/v1.js';
import { cliCreatedBy } from '../../../core/version.js';
import { credentialsSecretName } from './credentials.js';
import type { GatewayFields } from './gateway.js';
import { labelSelectorFrom } from './selector.js';
import { CREATED_BY_ANNOTATION } from '../../../core/mesh/names.js';

/** A `Link` (multicluster.linkerd.io/v1alpha3), fields in the Go struct's order (what `-o json` prints). */
export interface Link {
  kind: 'Link';
  apiVersion: 'multicluster.linkerd.io/v1alpha3';
  metadata: ObjectMeta;
  spec: {
    targetClusterName: string;
    targetClusterDomain: string;
    targetClusterLinkerdNamespace: string;
    clusterCredentialsSecret: string;
    gatewayAddress?: string;
    gatewayPort?: string;
    gatewayIdentity?: string;
    probeSpec: Partial<GatewayFields['probeSpec']>;
    selector?: LabelSelector;
    remoteDiscoverySelector: LabelSelector;
    federatedServiceSelector: LabelSelector;
    excludedAnnotations?: string[];
    excludedLabels?: string[];
  };
  status: Record<string, never>;
}

export interface LinkInput {
  clusterName: string;
  namespace: string;
  linkerdNamespace: string;
  /** The target's `clusterDomain`. */
  clusterDomain: string;
  /** Undefined for a gateway-less link (`--gateway=false`): no address, identity, port or selector, and an empty probe. */
  gateway?: GatewayFields;
  selector: string;
  remoteDiscoverySelector: string;
  federatedServiceSelector: string;
  excludedAnnotations: readonly string[];
  excludedLabels: readonly string[];
  cliVersion: string;
}

export function linkResource(input: LinkInput): Link {
  const g = input.gateway;
  const spec: Link['spec'] = {
    targetClusterName: input.clusterName,
    targetClusterDomain: input.clusterDomain,
    targetClusterLinkerdNamespace: input.linkerdNamespace,
    clusterCredentialsSecret: credentialsSecretName(input.clusterName),
    ...(g ? { gatewayAddress: g.gatewayAddress, gatewayPort: g.gatewayPort, gatewayIdentity: g.gatewayIdentity } : {}),
    probeSpec: g ? { ...g.probeSpec } : {},
    ...(g ? { selector: labelSelectorFrom(input.selector) } : {}),
    remoteDiscoverySelector: labelSelectorFrom(input.remoteDiscoverySelector),
    federatedServiceSelector: labelSelectorFrom(input.federatedServiceSelector),
  };
  if (input.excludedAnnotations.length) spec.excludedAnnotations = [...input.excludedAnnotations];
  if (input.excludedLabels.length) spec.excludedLabels = [...input.excludedLabels];
  return {
    kind: 'Link',
    apiVersion: 'multicluster.linkerd.io/v1alpha3',
    metadata: {
      name: input.clusterName,
      namespace: input.namespace,
      // ObjectMeta marshals an unset timestamp as null, after the namespace.
      creationTimestamp: null as unknown as string,
      annotations: { [CREATED_BY_ANNOTATION]: cliCreatedBy(input.cliVersion) },
    },
    spec,
    status: {},
  };
}
