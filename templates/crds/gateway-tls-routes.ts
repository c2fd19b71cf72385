import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { CrdContext } from './crd-context.js';
import { GATEWAY_GROUP, gatewayApiCrd } from './gateway-api-crd.js';
import { backendRef, backendRefs, hostnames, parentRefs, routeStatus } from './route-schemas.js';
import { arr, obj, resource } from './schema.js';

/** TLSRoute (v1alpha2, experimental): routes TLS connections by SNI, without terminating them. */
export function gatewayTlsRoutesCrd(ctx: CrdContext): CustomResourceDefinition {
  const rule = obj({ backendRefs: backendRefs(backendRef(), { minItems: 1 }) });
  const spec = obj(
    {
      hostnames: hostnames(),
      parentRefs: parentRefs({ defaultGroup: GATEWAY_GROUP, boundedPort: true }),
      rules: arr(rule, { minItems: 1, maxItems: 16 }),
    },
    ['rules'],
  );
  return gatewayApiCrd(ctx, 'TLSRoute', [
    {
      name: 'v1alpha2',
      served: true,
      storage: true,
      subresources: { status: {} },
      schema: { openAPIV3Schema: resource(spec, routeStatus(GATEWAY_GROUP)) },
      additionalPrinterColumns: [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }],
    },
  ]);
}
