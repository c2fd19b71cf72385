import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from 'kubernetes-types/apiextensions/v1.js';
import type { CrdContext } from './crd-context.js';
import { namespacedCrd } from './namespaced-crd.js';

export const GATEWAY_GROUP = 'gateway.networking.k8s.io';
/** The Gateway API bundle Linkerd ships; `check` asks external installs for at least this. */
export const GATEWAY_API_BUNDLE_VERSION = 'v1.1.1';

/**
 * A Gateway API route CRD as Linkerd ships it: the upstream experimental-channel bundle
 * annotations, plus `helm.sh/resource-policy: keep` so uninstalling Linkerd with Helm does
 * not delete routes other controllers may rely on.
 */
export function gatewayApiCrd(ctx: CrdContext, kind: string, versions: CustomResourceDefinitionVersion[]): CustomResourceDefinition {
  const plural = `${kind.toLowerCase()}s`;
  return namespacedCrd(ctx, {
    group: GATEWAY_GROUP,
    names: {
      categories: ['gateway-api'],
      kind,
      listKind: `${kind}List`,
      plural,
      singular: kind.toLowerCase(),
    },
    annotations: {
      'api-approved.kubernetes.io': 'https://github.com/kubernetes-sigs/gateway-api/pull/2997',
      'gateway.networking.k8s.io/bundle-version': GATEWAY_API_BUNDLE_VERSION,
      'gateway.networking.k8s.io/channel': 'experimental',
    },
    trailingAnnotations: { 'helm.sh/resource-policy': 'keep' },
    versions,
  });
}
