import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from 'kubernetes-types/apiextensions/v1.js';
import type { CrdContext } from './crd-context.js';
import { GATEWAY_GROUP, gatewayApiCrd } from './gateway-api-crd.js';
import {
  GATEWAY_DURATION_PATTERN,
  backendRefs,
  filteredBackendRef,
  filters,
  hostnames,
  httpRouteMatches,
  httpRouteTimeouts,
  matchEverythingRules,
  parentRefs,
  routeStatus,
  sessionPersistence,
  type FilterType,
} from './route-schemas.js';
import { arr, described, obj, resource, type Schema } from './schema.js';

const HTTP_FILTERS: FilterType[] = [
  'RequestHeaderModifier',
  'ResponseHeaderModifier',
  'RequestMirror',
  'RequestRedirect',
  'URLRewrite',
  'ExtensionRef',
];

/**
 * HTTPRoute of Gateway API v1.1.1 (experimental channel). The upstream CEL rules (unique
 * parentRefs, filter/field consistency, timeout ordering) are not reproduced.
 */
function httpRouteSchema(): Schema {
  const rule = obj({
    backendRefs: backendRefs(filteredBackendRef(HTTP_FILTERS)),
    filters: filters(HTTP_FILTERS),
    matches: httpRouteMatches({ strictQueryParamNames: true }),
    sessionPersistence: sessionPersistence(),
    timeouts: httpRouteTimeouts({ pattern: GATEWAY_DURATION_PATTERN }),
  });
  const spec = obj({
    hostnames: hostnames(),
    parentRefs: parentRefs({ defaultGroup: GATEWAY_GROUP, boundedPort: true }),
    rules: described('Matchers, filters and backends.', arr(rule, { maxItems: 16, default: matchEverythingRules() })),
  });
  return resource(spec, routeStatus(GATEWAY_GROUP));
}

/** Upstream lists v1 (stored) before the older v1beta1, which has the same schema. */
export function gatewayHttpRoutesCrd(ctx: CrdContext): CustomResourceDefinition {
  const version = (name: string, storage: boolean): CustomResourceDefinitionVersion => ({
    name,
    served: true,
    storage,
    subresources: { status: {} },
    schema: { openAPIV3Schema: httpRouteSchema() },
    additionalPrinterColumns: [
      { name: 'Hostnames', type: 'string', jsonPath: '.spec.hostnames' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
  });
  return gatewayApiCrd(ctx, 'HTTPRoute', [version('v1', true), version('v1beta1', false)]);
}
