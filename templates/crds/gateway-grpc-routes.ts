import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from 'kubernetes-types/apiextensions/v1.js';
import type { CrdContext } from './crd-context.js';
import { GATEWAY_GROUP, gatewayApiCrd } from './gateway-api-crd.js';
import {
  backendRefs,
  filteredBackendRef,
  filters,
  grpcMethodMatch,
  headerMatches,
  hostnames,
  parentRefs,
  routeStatus,
  sessionPersistence,
  type FilterType,
} from './route-schemas.js';
import { arr, described, obj, resource, type Schema } from './schema.js';

const GRPC_FILTERS: FilterType[] = ['ResponseHeaderModifier', 'RequestHeaderModifier', 'RequestMirror', 'ExtensionRef'];

const cel = true;

/** GRPCRoute of Gateway API v1.1.1 (experimental channel), with its CEL rules. */
function grpcRouteSchema(): Schema {
  const rule = obj({
    backendRefs: backendRefs(filteredBackendRef(GRPC_FILTERS, { cel })),
    filters: filters(GRPC_FILTERS, { cel, level: 'rule' }),
    matches: described(
      'Alternatives: a call matching any one of them matches the rule; every call when empty.',
      arr(obj({ headers: headerMatches(), method: grpcMethodMatch() }), { maxItems: 8 }),
    ),
    sessionPersistence: sessionPersistence(),
  });
  const spec = described(
    'Which gRPC calls the route matches and where it sends them.',
    obj({
      hostnames: hostnames(),
      parentRefs: parentRefs({ defaultGroup: GATEWAY_GROUP, boundedPort: true, cel }),
      rules: described('Matchers, filters and backends.', arr(rule, { maxItems: 16 })),
    }),
  );
  return resource(spec, routeStatus(GATEWAY_GROUP));
}

/** Upstream lists v1 (stored) before the older v1alpha2, which has the same schema. */
export function gatewayGrpcRoutesCrd(ctx: CrdContext): CustomResourceDefinition {
  const version = (name: string, storage: boolean): CustomResourceDefinitionVersion => ({
    name,
    served: true,
    storage,
    subresources: { status: {} },
    schema: { openAPIV3Schema: grpcRouteSchema() },
    additionalPrinterColumns: [
      { name: 'Hostnames', type: 'string', jsonPath: '.spec.hostnames' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
  });
  return gatewayApiCrd(ctx, 'GRPCRoute', [version('v1', true), version('v1alpha2', false)]);
}
