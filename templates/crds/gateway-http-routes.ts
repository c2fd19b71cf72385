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
import { httpRouteRuleRules, validated } from './route-validations.js';
import { arr, described, obj, resource, type Schema } from './schema.js';

const HTTP_FILTERS: FilterType[] = ['RequestHeaderModifier', 'ResponseHeaderModifier', 'RequestMirror', 'RequestRedirect', 'URLRewrite', 'ExtensionRef'];

const cel = true;

/** HTTPRoute of Gateway API v1.1.1 (experimental channel), with its CEL rules. */
function httpRouteSchema(): Schema {
  const rule = validated(
    obj({
      backendRefs: backendRefs(filteredBackendRef(HTTP_FILTERS, { cel })),
      filters: filters(HTTP_FILTERS, { cel, level: 'rule' }),
      matches: httpRouteMatches({ strictQueryParamNames: true, cel }),
      sessionPersistence: sessionPersistence(),
      timeouts: httpRouteTimeouts({ pattern: GATEWAY_DURATION_PATTERN }, { cel }),
    }),
    httpRouteRuleRules(),
  );
  const spec = described(
    'Which HTTP requests the route matches and where it sends them.',
    obj({
      hostnames: hostnames(),
      parentRefs: parentRefs({ defaultGroup: GATEWAY_GROUP, boundedPort: true, cel }),
      rules: described(
        'Matchers, filters and backends; the most specific match wins, ties go to the earlier rule.',
        arr(rule, { maxItems: 16, default: matchEverythingRules() }),
      ),
    }),
  );
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
