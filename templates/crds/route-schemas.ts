/**
 * Building blocks of Gateway API route schemas. Linkerd's policy.linkerd.io HTTPRoute mirrors
 * an early Gateway API HTTPRoute, and the Gateway API CRDs Linkerd can install reuse the
 * same shapes, so both are assembled from these parts.
 */
import {
  arr,
  described,
  int,
  int32,
  listMap,
  obj,
  oneOfStrings,
  portNumber,
  str,
  type Constraints,
  type Schema,
} from './schema.js';
import {
  DNS_SUBDOMAIN_PATTERN,
  metaConditions,
  refGroup,
  refKind,
  refName,
  refNamespace,
} from './shared-schemas.js';

const HOSTNAME_PATTERN = '^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
/** RFC 7230 token characters, which is what a header name may contain. */
export const HEADER_NAME_PATTERN = "^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$";
/** DOMAIN "/" PATH, as a GatewayClass controllerName is written. */
const CONTROLLER_NAME_PATTERN =
  "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\\/[A-Za-z0-9\\/\\-._~%!$&'()*+,;=:]+$";
/** Gateway API durations: up to four number+unit pairs, e.g. "1h30m". */
export const GATEWAY_DURATION_PATTERN = '^([0-9]{1,5}(h|m|s|ms)){1,4}$';

export const hostnames = (): Schema =>
  described(
    'Host header values the route answers for; a leading `*.` matches any subdomain.',
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
      group: refGroup({ default: defaultGroup }),
      kind: refKind({ default: 'Gateway' }),
      name: refName(),
      namespace: refNamespace(),
      port: boundedPort ? portNumber() : int(),
      sectionName: str({ minLength: 1, maxLength: 253, pattern: DNS_SUBDOMAIN_PATTERN }),
    },
    ['name'],
  );

export const parentRefs = (opts: ParentRefOptions): Schema =>
  described(
    'What the route attaches to: Gateways, or Services for mesh routing.',
    arr(parentRef(opts), { maxItems: 32 }),
  );

// --- filters --------------------------------------------------------------------------------

const header = (): Schema =>
  obj(
    {
      name: str({ minLength: 1, maxLength: 256, pattern: HEADER_NAME_PATTERN }),
      value: str({ minLength: 1, maxLength: 4096 }),
    },
    ['name', 'value'],
  );

const headerModifier = (): Schema =>
  obj({
    add: described('Headers appended to existing values.', listMap(header(), ['name'], { maxItems: 16 })),
    remove: described('Header names to drop.', arr(str(), { maxItems: 16 })),
    set: described('Headers that replace existing values.', listMap(header(), ['name'], { maxItems: 16 })),
  });

const pathModifier = (): Schema =>
  obj(
    {
      replaceFullPath: str({ maxLength: 1024 }),
      replacePrefixMatch: str({ maxLength: 1024 }),
      type: oneOfStrings(['ReplaceFullPath', 'ReplacePrefixMatch']),
    },
    ['type'],
  );

const preciseHostname = (): Schema => str({ minLength: 1, maxLength: 253, pattern: DNS_SUBDOMAIN_PATTERN });

const requestRedirect = (): Schema =>
  obj({
    hostname: preciseHostname(),
    path: pathModifier(),
    port: portNumber(),
    scheme: oneOfStrings(['http', 'https']),
    statusCode: int({ enum: [301, 302], default: 302 }),
  });

const urlRewrite = (): Schema => obj({ hostname: preciseHostname(), path: pathModifier() });

/** Where a backend reference points; by default, a Service in the core group. */
const backendObjectFields = (): Record<string, Schema> => ({
  group: refGroup({ default: '' }),
  kind: refKind({ default: 'Service' }),
  name: refName(),
  namespace: refNamespace(),
  port: portNumber(),
});

const requestMirror = (): Schema =>
  obj({ backendRef: obj(backendObjectFields(), ['name']) }, ['backendRef']);

const extensionRef = (): Schema =>
  obj({ group: refGroup(), kind: refKind(), name: refName() }, ['group', 'kind', 'name']);

export type FilterType =
  | 'RequestHeaderModifier'
  | 'ResponseHeaderModifier'
  | 'RequestMirror'
  | 'RequestRedirect'
  | 'URLRewrite'
  | 'ExtensionRef';

/** Each filter type and the field that configures it. */
const FILTER_FIELDS: Record<FilterType, [field: string, schema: () => Schema]> = {
  RequestHeaderModifier: ['requestHeaderModifier', headerModifier],
  ResponseHeaderModifier: ['responseHeaderModifier', headerModifier],
  RequestMirror: ['requestMirror', requestMirror],
  RequestRedirect: ['requestRedirect', requestRedirect],
  URLRewrite: ['urlRewrite', urlRewrite],
  ExtensionRef: ['extensionRef', extensionRef],
};

/** A filter list accepting `types`, in that order in the `type` enum. */
export function filters(types: readonly FilterType[]): Schema {
  const fields = Object.fromEntries(types.map((t) => [FILTER_FIELDS[t][0], FILTER_FIELDS[t][1]()]));
  const filter = obj({ ...fields, type: oneOfStrings(types) }, ['type']);
  return described('Processing applied to matching requests, in order.', arr(filter, { maxItems: 16 }));
}

// --- matches ---------------------------------------------------------------------------------

const matchType = (values: readonly string[], defaultValue: string): Schema =>
  oneOfStrings(values, { default: defaultValue });

export const headerMatches = (): Schema =>
  listMap(
    obj(
      {
        name: str({ minLength: 1, maxLength: 256, pattern: HEADER_NAME_PATTERN }),
        type: matchType(['Exact', 'RegularExpression'], 'Exact'),
        value: str({ minLength: 1, maxLength: 4096 }),
      },
      ['name', 'value'],
    ),
    ['name'],
    { maxItems: 16 },
  );

/** Gateway API v1 restricts query parameter names to header-name characters; Linkerd's copy does not. */
const queryParamMatches = (strictName: boolean): Schema =>
  listMap(
    obj(
      {
        name: str({ minLength: 1, maxLength: 256, ...(strictName ? { pattern: HEADER_NAME_PATTERN } : {}) }),
        type: matchType(['Exact', 'RegularExpression'], 'Exact'),
        value: str({ minLength: 1, maxLength: 1024 }),
      },
      ['name', 'value'],
    ),
    ['name'],
    { maxItems: 16 },
  );

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'];

/** With no matches at all, a rule matches every request (a "/" prefix). */
const matchEverything = () => ({ path: { type: 'PathPrefix', value: '/' } });

export const httpRouteMatches = ({ strictQueryParamNames }: { strictQueryParamNames: boolean }): Schema =>
  described(
    'Alternatives: a request matching any one of them matches the rule.',
    arr(
      obj({
        headers: headerMatches(),
        method: oneOfStrings(HTTP_METHODS),
        path: obj(
          {
            type: matchType(['Exact', 'PathPrefix', 'RegularExpression'], 'PathPrefix'),
            value: str({ default: '/', maxLength: 1024 }),
          },
          [],
          { default: { type: 'PathPrefix', value: '/' } },
        ),
        queryParams: queryParamMatches(strictQueryParamNames),
      }),
      { maxItems: 8, default: [matchEverything()] },
    ),
  );

/** The `default` of a route's `rules`: one rule matching everything. */
export const matchEverythingRules = () => [{ matches: [matchEverything()] }];

// --- backends --------------------------------------------------------------------------------

/** A weighted backend: its share of traffic is weight / sum of weights. */
export const backendRefFields = (): Record<string, Schema> => ({
  ...backendObjectFields(),
  weight: int32({ default: 1, minimum: 0, maximum: 1_000_000 }),
});

export const backendRef = (): Schema => obj(backendRefFields(), ['name']);

/** A backend that may carry its own filters. */
export const filteredBackendRef = (filterTypes: readonly FilterType[]): Schema =>
  obj({ ...backendRefFields(), filters: filters(filterTypes) }, ['name']);

export const backendRefs = (item: Schema, c: Constraints = {}): Schema =>
  described('Where matching traffic is sent.', arr(item, { maxItems: 16, ...c }));

// --- rule extras -----------------------------------------------------------------------------

/** Request and per-backend-attempt timeouts; both are durations. */
export const httpRouteTimeouts = (duration: Constraints): Schema =>
  obj({
    backendRequest: described('Timeout for each attempt to reach a backend.', str(duration)),
    request: described('Timeout for the whole client request.', str(duration)),
  });

/** Gateway API session persistence (experimental channel). */
export const sessionPersistence = (): Schema =>
  obj({
    absoluteTimeout: str({ pattern: GATEWAY_DURATION_PATTERN }),
    cookieConfig: obj({ lifetimeType: matchType(['Permanent', 'Session'], 'Session') }),
    idleTimeout: str({ pattern: GATEWAY_DURATION_PATTERN }),
    sessionName: str({ maxLength: 128 }),
    type: matchType(['Cookie', 'Header'], 'Cookie'),
  });

// --- status ----------------------------------------------------------------------------------

/**
 * Route status: one entry per parent, written by the controller that manages that parent.
 * Status parentRefs always bound the port, even where the spec's do not.
 */
export const routeStatus = (defaultParentGroup: string): Schema =>
  obj(
    {
      parents: arr(
        obj(
          {
            conditions: metaConditions(),
            controllerName: str({ minLength: 1, maxLength: 253, pattern: CONTROLLER_NAME_PATTERN }),
            parentRef: parentRef({ defaultGroup: defaultParentGroup, boundedPort: true }),
          },
          ['controllerName', 'parentRef'],
        ),
        { maxItems: 32 },
      ),
    },
    ['parents'],
  );
