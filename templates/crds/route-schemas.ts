/**
 * Building blocks of Gateway API route schemas. Linkerd's policy.linkerd.io HTTPRoute mirrors
 * an early Gateway API HTTPRoute, and the Gateway API CRDs Linkerd can install reuse the
 * same shapes, so both are assembled from these parts. Only the Gateway API CRDs carry
 * upstream's CEL rules: every part that has rules takes `cel`.
 */
import type { ValidationRule } from 'kubernetes-types/apiextensions/v1.js';
import { arr, described, int, int32, listMap, obj, oneOfStrings, portNumber, str, type Constraints, type Schema } from './schema.js';
import { DNS_SUBDOMAIN_PATTERN, metaConditions, refGroup, refKind, refName, refNamespace } from './shared-schemas.js';
import {
  backendPortRules,
  filterListRules,
  filterRules,
  grpcMethodMatchRules,
  httpTimeoutRules,
  parentRefsRules,
  pathMatchRules,
  pathModifierRules,
  sessionPersistenceRules,
  validated,
} from './route-validations.js';

const HOSTNAME_PATTERN = '^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
/** RFC 7230 token characters, which is what a header name may contain. */
export const HEADER_NAME_PATTERN = "^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$";
/** DOMAIN "/" PATH, as a GatewayClass controllerName is written. */
const CONTROLLER_NAME_PATTERN = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\\/[A-Za-z0-9\\/\\-._~%!$&'()*+,;=:]+$";
/** Gateway API durations: up to four number+unit pairs, e.g. "1h30m". */
export const GATEWAY_DURATION_PATTERN = '^([0-9]{1,5}(h|m|s|ms)){1,4}$';

/**
 * Whether a part carries the Gateway API's own validation: its CEL rules, and list types the
 * bundle adds (a header `remove` list is a set, so a repeated name is refused).
 */
export interface Cel {
  cel: boolean;
}

const ifCel = (cel: boolean, rules: () => ValidationRule[]): ValidationRule[] => (cel ? rules() : []);

export const hostnames = (): Schema =>
  described(
    'Host header values the route answers for; a leading `*.` matches any subdomain. Empty matches every host.',
    arr(str({ minLength: 1, maxLength: 253, pattern: HOSTNAME_PATTERN }), { maxItems: 16 }),
  );

export interface ParentRefOptions {
  /** The group assumed when a parentRef leaves it out. */
  defaultGroup: string;
  /** Early Linkerd versions took any integer as the port; later ones bound it to a port number. */
  boundedPort: boolean;
}

export const parentRef = ({ defaultGroup, boundedPort }: ParentRefOptions): Schema =>
  obj(
    {
      group: described(`API group of the parent; "${defaultGroup}" when unset, "" for the core group.`, refGroup({ default: defaultGroup })),
      kind: described('Kind of the parent, e.g. Gateway or Service.', refKind({ default: 'Gateway' })),
      name: described('Name of the parent.', refName()),
      namespace: described("Namespace of the parent; the route's own when unset.", refNamespace()),
      port: described('Only attach to this port of the parent.', boundedPort ? portNumber() : int()),
      sectionName: described(
        'Only attach to this named part of the parent: a Gateway listener or a Service port name.',
        str({ minLength: 1, maxLength: 253, pattern: DNS_SUBDOMAIN_PATTERN }),
      ),
    },
    ['name'],
  );

export const parentRefs = (opts: ParentRefOptions & Cel): Schema =>
  described(
    'What the route attaches to: Gateways, or Services for mesh routing.',
    validated(arr(parentRef(opts), { maxItems: 32 }), ifCel(opts.cel, parentRefsRules)),
  );

// --- filters --------------------------------------------------------------------------------

const header = (): Schema =>
  obj(
    {
      name: described('Header name, matched case-insensitively.', str({ minLength: 1, maxLength: 256, pattern: HEADER_NAME_PATTERN })),
      value: described('Header value.', str({ minLength: 1, maxLength: 4096 })),
    },
    ['name', 'value'],
  );

const headerModifier = (what: string, { cel }: Cel): Schema =>
  described(
    `Adds, replaces or removes ${what} headers.`,
    obj({
      add: described('Headers appended to existing values.', listMap(header(), ['name'], { maxItems: 16 })),
      remove: described('Header names to drop.', arr(str(), { maxItems: 16, ...(cel ? { 'x-kubernetes-list-type': 'set' as const } : {}) })),
      set: described('Headers that replace existing values.', listMap(header(), ['name'], { maxItems: 16 })),
    }),
  );

const pathModifier = (description: string, { cel }: Cel): Schema =>
  described(
    description,
    validated(
      obj(
        {
          replaceFullPath: described('The path that replaces the whole request path.', str({ maxLength: 1024 })),
          replacePrefixMatch: described("What replaces the part of the path the rule's PathPrefix match matched.", str({ maxLength: 1024 })),
          type: described('Which replacement applies.', oneOfStrings(['ReplaceFullPath', 'ReplacePrefixMatch'])),
        },
        ['type'],
      ),
      ifCel(cel, pathModifierRules),
    ),
  );

const preciseHostname = (description: string): Schema => described(description, str({ minLength: 1, maxLength: 253, pattern: DNS_SUBDOMAIN_PATTERN }));

const requestRedirect = (c: Cel): Schema =>
  described(
    'Answers with an HTTP redirect instead of forwarding.',
    obj({
      hostname: preciseHostname("Host of the Location header; the request's host when unset."),
      path: pathModifier("How the Location header's path is derived; the request's path when unset.", c),
      port: described('Port of the Location header; derived from the scheme or the listener when unset.', portNumber()),
      scheme: described("Scheme of the Location header; the request's when unset.", oneOfStrings(['http', 'https'])),
      statusCode: described('HTTP status of the redirect.', int({ enum: [301, 302], default: 302 })),
    }),
  );

const urlRewrite = (c: Cel): Schema =>
  described(
    'Rewrites the request while forwarding it.',
    obj({
      hostname: preciseHostname('Host header value sent to the backend.'),
      path: pathModifier('How the request path is rewritten.', c),
    }),
  );

/** Where a backend reference points; by default, a Service in the core group. */
const backendObjectFields = (): Record<string, Schema> => ({
  group: described('API group of the backend; "" (the core group) when unset.', refGroup({ default: '' })),
  kind: described('Kind of the backend; Service when unset.', refKind({ default: 'Service' })),
  name: described('Name of the backend.', refName()),
  namespace: described("Namespace of the backend; the route's own when unset. Other namespaces need a ReferenceGrant.", refNamespace()),
  port: described('Port of the backend; required for a Service (its service port, not the target port).', portNumber()),
});

const requestMirror = ({ cel }: Cel): Schema =>
  described(
    'Sends a copy of each request to another backend and ignores its responses.',
    obj(
      {
        backendRef: described('Where copies are sent.', validated(obj(backendObjectFields(), ['name']), ifCel(cel, backendPortRules))),
      },
      ['backendRef'],
    ),
  );

const extensionRef = (): Schema =>
  described(
    'An implementation-specific filter object, for filter type ExtensionRef.',
    obj(
      {
        group: described('API group of the filter object.', refGroup()),
        kind: described('Kind of the filter object.', refKind()),
        name: described('Name of the filter object.', refName()),
      },
      ['group', 'kind', 'name'],
    ),
  );

export type FilterType = 'RequestHeaderModifier' | 'ResponseHeaderModifier' | 'RequestMirror' | 'RequestRedirect' | 'URLRewrite' | 'ExtensionRef';

/** Each filter type and the field that configures it. */
const FILTER_FIELDS: Record<FilterType, [field: string, schema: (c: Cel) => Schema]> = {
  RequestHeaderModifier: ['requestHeaderModifier', (c) => headerModifier('request', c)],
  ResponseHeaderModifier: ['responseHeaderModifier', (c) => headerModifier('response', c)],
  RequestMirror: ['requestMirror', requestMirror],
  RequestRedirect: ['requestRedirect', requestRedirect],
  URLRewrite: ['urlRewrite', urlRewrite],
  ExtensionRef: ['extensionRef', extensionRef],
};

export interface FilterListOptions extends Cel {
  /** Rule-level and backend-level filter lists carry slightly different rules upstream. */
  level: 'rule' | 'backend';
}

/** A filter list accepting `types`, in that order in the `type` enum. */
export function filters(types: readonly FilterType[], { cel, level }: FilterListOptions): Schema {
  const fields = Object.fromEntries(types.map((t) => [FILTER_FIELDS[t][0], FILTER_FIELDS[t][1]({ cel })]));
  const filter = obj(
    {
      ...fields,
      type: described('Which filter this is; only the field of that name may be set.', oneOfStrings(types)),
    },
    ['type'],
  );
  return described(
    level === 'rule' ? 'Processing applied to matching requests, in order.' : 'Processing applied only to requests sent to this backend, in order.',
    validated(
      arr(
        validated(
          filter,
          ifCel(cel, () => filterRules(types)),
        ),
        { maxItems: 16 },
      ),
      ifCel(cel, () => filterListRules(types, level)),
    ),
  );
}

// --- matches ---------------------------------------------------------------------------------

const matchType = (values: readonly string[], defaultValue: string): Schema => oneOfStrings(values, { default: defaultValue });

const valueMatchType = (): Schema => described('Compare the value exactly or as a regular expression.', matchType(['Exact', 'RegularExpression'], 'Exact'));

/** Request header matchers, all of which must match. */
export const headerMatches = (): Schema =>
  described(
    'Request headers that must all match.',
    listMap(
      obj(
        {
          name: described('Header name, matched case-insensitively.', str({ minLength: 1, maxLength: 256, pattern: HEADER_NAME_PATTERN })),
          type: valueMatchType(),
          value: described('Value to compare the header with.', str({ minLength: 1, maxLength: 4096 })),
        },
        ['name', 'value'],
      ),
      ['name'],
      { maxItems: 16 },
    ),
  );

/** Gateway API v1 restricts query parameter names to header-name characters; Linkerd's copy does not. */
const queryParamMatches = (strictName: boolean): Schema =>
  described(
    'Query parameters that must all match.',
    listMap(
      obj(
        {
          name: described(
            'Query parameter name, matched exactly.',
            str({ minLength: 1, maxLength: 256, ...(strictName ? { pattern: HEADER_NAME_PATTERN } : {}) }),
          ),
          type: valueMatchType(),
          value: described('Value to compare the parameter with.', str({ minLength: 1, maxLength: 1024 })),
        },
        ['name', 'value'],
      ),
      ['name'],
      { maxItems: 16 },
    ),
  );

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'];

/** With no matches at all, a rule matches every request (a "/" prefix). */
const matchEverything = () => ({ path: { type: 'PathPrefix', value: '/' } });

export interface HttpRouteMatchOptions extends Cel {
  strictQueryParamNames: boolean;
}

export const httpRouteMatches = ({ strictQueryParamNames, cel }: HttpRouteMatchOptions): Schema =>
  described(
    'Alternatives: a request matching any one of them matches the rule.',
    arr(
      obj({
        headers: headerMatches(),
        method: described('HTTP method the request must use.', oneOfStrings(HTTP_METHODS)),
        path: described(
          'Request path matcher; a "/" prefix when unset.',
          validated(
            obj(
              {
                type: described(
                  'Match the path exactly, by path-segment prefix, or as a regular expression.',
                  matchType(['Exact', 'PathPrefix', 'RegularExpression'], 'PathPrefix'),
                ),
                value: described('The path, prefix or expression to match.', str({ default: '/', maxLength: 1024 })),
              },
              [],
              { default: { type: 'PathPrefix', value: '/' } },
            ),
            ifCel(cel, pathMatchRules),
          ),
        ),
        queryParams: queryParamMatches(strictQueryParamNames),
      }),
      { maxItems: 8, default: [matchEverything()] },
    ),
  );

/** The `default` of a route's `rules`: one rule matching everything. */
export const matchEverythingRules = () => [{ matches: [matchEverything()] }];

/** gRPC calls are matched by service and method name, exactly or by regular expression. */
export const grpcMethodMatch = (): Schema =>
  described(
    'The gRPC service and method to match; every call when unset.',
    validated(
      obj({
        method: described('Method name; any method when unset.', str({ maxLength: 1024 })),
        service: described('Fully qualified service name; any service when unset.', str({ maxLength: 1024 })),
        type: described('Match the names exactly or as regular expressions.', oneOfStrings(['Exact', 'RegularExpression'], { default: 'Exact' })),
      }),
      grpcMethodMatchRules(),
    ),
  );

// --- backends --------------------------------------------------------------------------------

/** A weighted backend: its share of traffic is weight / sum of weights. */
export const backendRefFields = (): Record<string, Schema> => ({
  ...backendObjectFields(),
  weight: described('Share of traffic: this weight over the sum of weights in the list; 0 sends none.', int32({ default: 1, minimum: 0, maximum: 1_000_000 })),
});

export const backendRef = ({ cel }: Cel): Schema => validated(obj(backendRefFields(), ['name']), ifCel(cel, backendPortRules));

/** A backend that may carry its own filters. */
export const filteredBackendRef = (filterTypes: readonly FilterType[], { cel }: Cel): Schema =>
  validated(obj({ ...backendRefFields(), filters: filters(filterTypes, { cel, level: 'backend' }) }, ['name']), ifCel(cel, backendPortRules));

export const backendRefs = (item: Schema, c: Constraints = {}): Schema => described('Where matching traffic is sent.', arr(item, { maxItems: 16, ...c }));

// --- rule extras -----------------------------------------------------------------------------

/** Request and per-backend-attempt timeouts; both are durations. */
export const httpRouteTimeouts = (duration: Constraints, { cel }: Cel): Schema =>
  described(
    'Timeouts for matching requests; "0s" disables one.',
    validated(
      obj({
        backendRequest: described('Timeout for each attempt to reach a backend.', str(duration)),
        request: described('Timeout for the whole client request.', str(duration)),
      }),
      ifCel(cel, httpTimeoutRules),
    ),
  );

/** Gateway API session persistence (experimental channel); only the Gateway API CRDs have it. */
export const sessionPersistence = (): Schema =>
  described(
    'Keeps a client on the same backend across requests.',
    validated(
      obj({
        absoluteTimeout: described('How long a session lasts at most.', str({ pattern: GATEWAY_DURATION_PATTERN })),
        cookieConfig: described(
          'Settings for cookie-based sessions.',
          obj({
            lifetimeType: described('A Permanent cookie (expires after absoluteTimeout) or a Session cookie.', matchType(['Permanent', 'Session'], 'Session')),
          }),
        ),
        idleTimeout: described('How long a session may sit idle.', str({ pattern: GATEWAY_DURATION_PATTERN })),
        sessionName: described('Name of the session cookie or header.', str({ maxLength: 128 })),
        type: described('Carry the session in a cookie or a header.', matchType(['Cookie', 'Header'], 'Cookie')),
      }),
      sessionPersistenceRules(),
    ),
  );

// --- status ----------------------------------------------------------------------------------

/**
 * Route status: one entry per parent, written by the controller that manages that parent.
 * Status parentRefs always bound the port, even where the spec's do not.
 */
export const routeStatus = (defaultParentGroup: string): Schema =>
  described(
    'What the controllers of its parents report about the route.',
    obj(
      {
        parents: described(
          'One entry per parent the route attaches to.',
          arr(
            obj(
              {
                conditions: described('Whether the parent accepted the route and could resolve its references.', metaConditions()),
                controllerName: described(
                  'The controller that wrote this entry, as DOMAIN/PATH.',
                  str({ minLength: 1, maxLength: 253, pattern: CONTROLLER_NAME_PATTERN }),
                ),
                parentRef: described('The parent this entry is about.', parentRef({ defaultGroup: defaultParentGroup, boundedPort: true })),
              },
              ['controllerName', 'parentRef'],
            ),
            { maxItems: 32 },
          ),
        ),
      },
      ['parents'],
    ),
  );
