import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from 'kubernetes-types/apiextensions/v1.js';
import type { CrdContext } from './crd-context.js';
import { GATEWAY_GROUP, gatewayApiCrd } from './gateway-api-crd.js';
import {
  backendRefs,
  filteredBackendRef,
  filters,
  headerMatches,
  hostnames,
  parentRefs,
  routeStatus,
  sessionPersistence,
  type FilterType,
} from './route-schemas.js';
import { arr, described, obj, oneOfStrings, resource, str, type Schema } from './schema.js';

const GRPC_FILTERS: FilterType[] = ['ResponseHeaderModifier', 'RequestHeaderModifier', 'RequestMirror', 'ExtensionRef'];

/** A gRPC call is matched by its service and method names, exactly or by regular expression. */
const grpcMethodMatch = (): Schema =>
  obj({
    method: str({ maxLength: 1024 }),
    service: str({ maxLength: 1024 }),
    type: oneOfStrings(['Exact', 'RegularExpression'], { default: 'Exact' }),
  });

/** GRPCRoute of Gateway API v1.1.1 (experimental channel), without the upstream CEL rules. */
function grpcRouteSchema(): Schema {
  const rule = obj({
    backendRefs: backendRefs(filteredBackendRef(GRPC_FILTERS)),
    filters: filters(GRPC_FILTERS),
    matches: described(
      'Alternatives: a call matching any one of them matches the rule.',
      arr(obj({ headers: headerMatches(), method: grpcMethodMatch() }), { maxItems: 8 }),
    ),
    sessionPersistence: sessionPersistence(),
  });
  const spec = obj({
    hostnames: hostnames(),
    parentRefs: parentRefs({ defaultGroup: GATEWAY_GROUP, boundedPort: true }),
    rules: arr(rule, { maxItems: 16 }),
  });
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
