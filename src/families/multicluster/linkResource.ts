import type { CustomResource, KubeObject } from '../../core/kube/resources.js';
import { CREATED_BY_ANNOTATION } from '../../core/mesh/names.js';

/** The Link custom resource, at the version this CLI writes and reads. */
export const LINK_RESOURCE: CustomResource = { group: 'multicluster.linkerd.io', version: 'v1alpha3', plural: 'links', kind: 'Link', namespaced: true };

/** What the commands read of a stored Link (leniently: a missing field reads as empty). */
export interface StoredLink {
  name: string;
  namespace: string;
  targetClusterName: string;
  clusterCredentialsSecret: string;
  targetClusterLinkerdNamespace: string;
  gatewayAddress: string;
  gatewayIdentity: string;
  probePath: string;
  createdBy: string | undefined;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function storedLink(o: KubeObject): StoredLink {
  const spec = (o as { spec?: Record<string, unknown> }).spec ?? {};
  const probe = (spec.probeSpec ?? {}) as Record<string, unknown>;
  return {
    name: o.metadata?.name ?? '',
    namespace: o.metadata?.namespace ?? '',
    targetClusterName: str(spec.targetClusterName),
    clusterCredentialsSecret: str(spec.clusterCredentialsSecret),
    targetClusterLinkerdNamespace: str(spec.targetClusterLinkerdNamespace),
    gatewayAddress: str(spec.gatewayAddress),
    gatewayIdentity: str(spec.gatewayIdentity),
    probePath: str(probe.path),
    createdBy: o.metadata?.annotations?.[CREATED_BY_ANNOTATION],
  };
}

/** A Link made with `--gateway=false`: no gateway to probe, nothing to scrape. */
export const isGatewayless = (l: StoredLink): boolean => l.gatewayAddress === '' || l.probePath === '';
