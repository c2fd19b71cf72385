import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { CrdContext } from './crd-context.js';
import { GATEWAY_GROUP, gatewayApiCrd } from './gateway-api-crd.js';
import { backendRef, backendRefs, hostnames, parentRefs, routeStatus } from './route-schemas.js';
import { arr, described, obj, resource } from './schema.js';

/** TLSRoute (v1alpha2, experimental): routes TLS connections by SNI, without terminating them. */
export function gatewayTlsRoutesCrd(ctx: CrdContext): CustomResourceDefinition {
  const rule = obj({ backendRefs: backendRefs(backendRef({ cel: true }), { minItems: 1 }) });
  const spec = described(
    'Which TLS connections (by SNI) the route matches and where it forwards them.',
    obj(
      {
        hostnames: described('SNI names the route answers for; a leading `*.` matches any subdomain.', hostnames()),
        parentRefs: parentRefs({ defaultGroup: GATEWAY_GROUP, boundedPort: true, cel: true }),
        rules: described('Backends for matching connections.', arr(rule, { minItems: 1, maxItems: 16 })),
      },
      ['rules'],
    ),
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
