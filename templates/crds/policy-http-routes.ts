import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from 'kubernetes-types/apiextensions/v1.js';
import type { CrdContext } from './crd-context.js';
import { namespacedCrd } from './namespaced-crd.js';
import {
  backendRefs,
  filteredBackendRef,
  filters,
  hostnames,
  httpRouteMatches,
  httpRouteTimeouts,
  matchEverythingRules,
  parentRefs,
  routeStatus,
  type FilterType,
} from './route-schemas.js';
import { arr, described, int, obj, resource, str, type Schema } from './schema.js';

const GROUP = 'policy.linkerd.io';

/** Linkerd's HTTPRoute predates mirroring, URL rewrites and extension filters. */
const RULE_FILTERS: FilterType[] = ['RequestHeaderModifier', 'RequestRedirect'];
const BACKEND_FILTERS: FilterType[] = ['RequestHeaderModifier', 'ResponseHeaderModifier', 'RequestRedirect'];
/** Linkerd's HTTPRoute never carried Gateway API's CEL rules; its admission webhook validates it. */
const cel = false;

/** How each served version differs from the one before it. */
interface Revision {
  /** v1beta2 adopted Gateway API's weighted, typed backendRefs and bounded parentRef ports. */
  gatewayBackends: boolean;
  /** v1beta3 added per-rule timeouts. */
  timeouts: boolean;
}

const REVISIONS: Record<string, Revision> = {
  v1alpha1: { gatewayBackends: false, timeouts: false },
  v1beta1: { gatewayBackends: false, timeouts: false },
  v1beta2: { gatewayBackends: true, timeouts: false },
  v1beta3: { gatewayBackends: true, timeouts: true },
};

/** The first backends: a Service name and port, its namespace defaulting to "default". */
const legacyBackendRefs = (): Schema =>
  described(
    'Where matching traffic is sent.',
    arr(
      obj({
        name: described('Name of the backend Service.', str()),
        port: described('Port of the backend Service.', int()),
        namespace: described('Namespace of the backend Service.', str({ default: 'default' })),
        filters: filters(BACKEND_FILTERS, { cel, level: 'backend' }),
      }),
    ),
  );

function httpRouteSchema({ gatewayBackends, timeouts }: Revision): Schema {
  const rule = obj({
    backendRefs: gatewayBackends ? backendRefs(filteredBackendRef(BACKEND_FILTERS, { cel })) : legacyBackendRefs(),
    filters: filters(RULE_FILTERS, { cel, level: 'rule' }),
    matches: httpRouteMatches({ strictQueryParamNames: false, cel }),
    ...(timeouts ? { timeouts: httpRouteTimeouts({ format: 'duration' }, { cel }) } : {}),
  });
  const spec = described(
    'Which HTTP requests the route matches and where it sends them.',
    obj({
      hostnames: hostnames(),
      parentRefs: parentRefs({ defaultGroup: GROUP, boundedPort: gatewayBackends, cel }),
      rules: described('Matchers, filters and backends.', arr(rule, { maxItems: 16, default: matchEverythingRules() })),
    }),
  );
  // The chart's HTTPRoute schema is generated from Go types, so every version also types the
  // object's own apiVersion, kind and metadata (the other policy CRDs leave them out).
  const schema = resource(spec, routeStatus(GROUP));
  const typeMeta = {
    apiVersion: described('The API group and version of this object, such as policy.linkerd.io/v1beta3.', str()),
    kind: described('The kind of this object: HTTPRoute.', str()),
    metadata: { type: 'object' },
  };
  return { ...schema, properties: { ...typeMeta, ...schema.properties } };
}

/** HTTPRoute (policy.linkerd.io): Linkerd's own copy of the Gateway API HTTPRoute, for mesh routing and policy. */
export function policyHttpRoutesCrd(ctx: CrdContext): CustomResourceDefinition {
  const versions: CustomResourceDefinitionVersion[] = Object.entries(REVISIONS).map(([name, revision]) => ({
    name,
    served: true,
    storage: name === 'v1beta3',
    subresources: { status: {} },
    schema: { openAPIV3Schema: httpRouteSchema(revision) },
    additionalPrinterColumns: [
      { name: 'Hostnames', type: 'string', jsonPath: '.spec.hostnames' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
  }));

  return namespacedCrd(ctx, {
    group: GROUP,
    names: { kind: 'HTTPRoute', listKind: 'HTTPRouteList', plural: 'httproutes', singular: 'httproute' },
    versions,
  });
}
