import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { CrdContext } from './crd-context.js';
import { GATEWAY_GROUP, gatewayApiCrd } from './gateway-api-crd.js';
import { backendRef, backendRefs, parentRefs, routeStatus } from './route-schemas.js';
import { arr, described, obj, resource } from './schema.js';

/** TCPRoute (v1alpha2, experimental): forwards a listener's TCP connections to backends. */
export function gatewayTcpRoutesCrd(ctx: CrdContext): CustomResourceDefinition {
  const rule = obj({ backendRefs: backendRefs(backendRef({ cel: true }), { minItems: 1 }) });
  const spec = described(
    'Where the TCP connections of its parents are forwarded.',
    obj(
      {
        parentRefs: parentRefs({ defaultGroup: GATEWAY_GROUP, boundedPort: true, cel: true }),
        rules: described('Backends for the connections.', arr(rule, { minItems: 1, maxItems: 16 })),
      },
      ['rules'],
    ),
  );
  return gatewayApiCrd(ctx, 'TCPRoute', [
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
