/**
 * The CEL validation rules (`x-kubernetes-validations`) of the Gateway API route CRDs, as the
 * v1.1.1 experimental bundle Linkerd ships states them. Rule expressions and messages are API
 * behaviour (the API server reports the message verbatim), so they are kept word for word;
 * rules that repeat a shape for each filter or path token are generated from tables.
 * Linkerd's own policy.linkerd.io HTTPRoute has none of these.
 */
import type { ValidationRule } from 'kubernetes-types/apiextensions/v1.js';
import type { Schema } from './schema.js';

const rule = (expression: string, message: string): ValidationRule => ({ rule: expression, message });

/** Adds rules to a node; an empty list adds nothing, so unvalidated nodes render unchanged. */
export function validated(node: Schema, rules: readonly ValidationRule[]): Schema {
  if (rules.length === 0) return node;
  return { ...node, 'x-kubernetes-validations': [...(node['x-kubernetes-validations'] ?? []), ...rules] };
}

// --- parentRefs --------------------------------------------------------------------------

// Two refs name the same parent when group, kind and name match and both leave the namespace
// out (or empty) or both set the same one. `namespace` is a CEL keyword, hence __namespace__.
const SAME_PARENT =
  "p1.group == p2.group && p1.kind == p2.kind && p1.name == p2.name && (((!has(p1.__namespace__) || p1.__namespace__ == '') && (!has(p2.__namespace__) || p2.__namespace__ == '')) || (has(p1.__namespace__) && has(p2.__namespace__) && p1.__namespace__ == p2.__namespace__";

/** Refs to one parent must all narrow it the same way (sectionName, port) and never repeat. */
export const parentRefsRules = (): ValidationRule[] => [
  rule(
    `self.all(p1, self.all(p2, ${SAME_PARENT})) ? ((!has(p1.sectionName) || p1.sectionName == '') == (!has(p2.sectionName) || p2.sectionName == '') && (!has(p1.port) || p1.port == 0) == (!has(p2.port) || p2.port == 0)): true))`,
    'sectionName or port must be specified when parentRefs includes 2 or more references to the same parent',
  ),
  rule(
    `self.all(p1, self.exists_one(p2, ${SAME_PARENT} )) && (((!has(p1.sectionName) || p1.sectionName == '') && (!has(p2.sectionName) || p2.sectionName == '')) || ( has(p1.sectionName) && has(p2.sectionName) && p1.sectionName == p2.sectionName)) && (((!has(p1.port) || p1.port == 0) && (!has(p2.port) || p2.port == 0)) || (has(p1.port) && has(p2.port) && p1.port == p2.port))))`,
    'sectionName or port must be unique when parentRefs includes 2 or more references to the same parent',
  ),
];

// --- backends ----------------------------------------------------------------------------

/** A Service (core group) backend has no default port, so one must be given. */
export const backendPortRules = (): ValidationRule[] => [
  rule("(size(self.group) == 0 && self.kind == 'Service') ? has(self.port) : true", 'Must have port for Service reference'),
];

// --- filters -----------------------------------------------------------------------------

/** Filter types in the order upstream states their rules, with the field each one configures. */
const FILTER_RULE_ORDER: readonly (readonly [type: string, field: string])[] = [
  ['RequestHeaderModifier', 'requestHeaderModifier'],
  ['ResponseHeaderModifier', 'responseHeaderModifier'],
  ['RequestMirror', 'requestMirror'],
  ['RequestRedirect', 'requestRedirect'],
  ['URLRewrite', 'urlRewrite'],
  ['ExtensionRef', 'extensionRef'],
];

/** Each filter sets exactly the field its type names. */
export const filterRules = (types: readonly string[]): ValidationRule[] =>
  FILTER_RULE_ORDER.filter(([type]) => types.includes(type)).flatMap(([type, field]) => [
    rule(`!(has(self.${field}) && self.type != '${type}')`, `filter.${field} must be nil if the filter.type is not ${type}`),
    rule(`!(!has(self.${field}) && self.type == '${type}')`, `filter.${field} must be specified for ${type} filter.type`),
  ]);

/** Filters that may appear once per list; mirrors and extension refs may repeat. */
const SINGLE_USE_FILTERS = ['RequestHeaderModifier', 'ResponseHeaderModifier', 'RequestRedirect', 'URLRewrite'];

const redirectXorRewrite = (): ValidationRule =>
  rule(
    "!(self.exists(f, f.type == 'RequestRedirect') && self.exists(f, f.type == 'URLRewrite'))",
    'May specify either httpRouteFilterRequestRedirect or httpRouteFilterRequestRewrite, but not both',
  );

/**
 * Rules on a filter list: a redirect excludes a rewrite, and single-use filters appear once.
 * Upstream states the redirect/rewrite rule twice on backend-level HTTP filter lists; the
 * duplicate is kept so the rule set matches upstream's rule for rule.
 */
export function filterListRules(types: readonly string[], level: 'rule' | 'backend'): ValidationRule[] {
  const exclusive = types.includes('RequestRedirect') && types.includes('URLRewrite');
  // Fresh objects each time: a shared one would print as a YAML anchor.
  const xor = exclusive ? (level === 'backend' ? [redirectXorRewrite(), redirectXorRewrite()] : [redirectXorRewrite()]) : [];
  const once = SINGLE_USE_FILTERS.filter((t) => types.includes(t)).map((t) =>
    rule(`self.filter(f, f.type == '${t}').size() <= 1`, `${t} filter cannot be repeated`),
  );
  return [...xor, ...once];
}

/** A path modifier sets exactly the field its type names. */
export const pathModifierRules = (): ValidationRule[] =>
  (
    [
      ['ReplaceFullPath', 'replaceFullPath'],
      ['ReplacePrefixMatch', 'replacePrefixMatch'],
    ] as const
  ).flatMap(([type, field]) => [
    rule(`self.type == '${type}' ? has(self.${field}) : true`, `${field} must be specified when type is set to '${type}'`),
    rule(`has(self.${field}) ? self.type == '${type}' : true`, `type must be '${type}' when ${field} is set`),
  ]);

// --- HTTPRoute matches and rules --------------------------------------------------------

const EXACT_OR_PREFIX = "(self.type in ['Exact','PathPrefix'])";
const EXACT_OR_PREFIX_WORDS = "['Exact', 'PathPrefix']";
/** Characters an Exact or PathPrefix path may hold: RFC 3986 pchars and "/", or %-escapes. */
const PATH_CHARACTERS = "^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$";

/** Exact and prefix paths are absolute, normalised and unescaped where it matters. */
export const pathMatchRules = (): ValidationRule[] => [
  rule(`${EXACT_OR_PREFIX} ? self.value.startsWith('/') : true`, `value must be an absolute path and start with '/' when type one of ${EXACT_OR_PREFIX_WORDS}`),
  ...['//', '/./', '/../', '%2f', '%2F', '#'].map((token) =>
    rule(`${EXACT_OR_PREFIX} ? !self.value.contains('${token}') : true`, `must not contain '${token}' when type one of ${EXACT_OR_PREFIX_WORDS}`),
  ),
  ...['/..', '/.'].map((suffix) =>
    rule(`${EXACT_OR_PREFIX} ? !self.value.endsWith('${suffix}') : true`, `must not end with '${suffix}' when type one of ${EXACT_OR_PREFIX_WORDS}`),
  ),
  rule("self.type in ['Exact','PathPrefix'] || self.type == 'RegularExpression'", "type must be one of ['Exact', 'PathPrefix', 'RegularExpression']"),
  rule(
    `${EXACT_OR_PREFIX} ? self.value.matches(r"""${PATH_CHARACTERS}""") : true`,
    `must only contain valid characters (matching ${PATH_CHARACTERS}) for types ${EXACT_OR_PREFIX_WORDS}`,
  ),
];

/** A filter (held in `f`) that replaces the matched prefix, by redirect or rewrite. */
const replacesPrefix = (field: 'requestRedirect' | 'urlRewrite'): string =>
  `has(f.${field}) && has(f.${field}.path) && f.${field}.path.type == 'ReplacePrefixMatch' && has(f.${field}.path.replacePrefixMatch)`;

/** The rule's matches are not exactly one PathPrefix match. */
const NOT_ONE_PREFIX_MATCH = "(size(self.matches) != 1 || !has(self.matches[0].path) || self.matches[0].path.type != 'PathPrefix')";

/** Redirects exclude backends, and prefix replacement needs exactly one prefix match to replace. */
export const httpRouteRuleRules = (): ValidationRule[] => [
  rule(
    '(has(self.backendRefs) && size(self.backendRefs) > 0) ? (!has(self.filters) || self.filters.all(f, !has(f.requestRedirect))): true',
    'RequestRedirect filter must not be used together with backendRefs',
  ),
  rule(
    `(has(self.filters) && self.filters.exists_one(f, ${replacesPrefix('requestRedirect')})) ? (${NOT_ONE_PREFIX_MATCH} ? false : true) : true`,
    'When using RequestRedirect filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified',
  ),
  rule(
    `(has(self.filters) && self.filters.exists_one(f, ${replacesPrefix('urlRewrite')})) ? (${NOT_ONE_PREFIX_MATCH} ? false : true) : true`,
    'When using URLRewrite filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified',
  ),
  rule(
    `(has(self.backendRefs) && self.backendRefs.exists_one(b, (has(b.filters) && b.filters.exists_one(f, ${replacesPrefix('requestRedirect')})) )) ? (${NOT_ONE_PREFIX_MATCH} ? false : true) : true`,
    'Within backendRefs, when using RequestRedirect filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified',
  ),
  rule(
    `(has(self.backendRefs) && self.backendRefs.exists_one(b, (has(b.filters) && b.filters.exists_one(f, ${replacesPrefix('urlRewrite')})) )) ? (${NOT_ONE_PREFIX_MATCH} ? false : true) : true`,
    'Within backendRefs, When using URLRewrite filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified',
  ),
];

/** A zero request timeout means "none", so only a non-zero one bounds the backend timeout. */
export const httpTimeoutRules = (): ValidationRule[] => [
  rule(
    "!(has(self.request) && has(self.backendRequest) && duration(self.request) != duration('0s') && duration(self.backendRequest) > duration(self.request))",
    'backendRequest timeout cannot be longer than request timeout',
  ),
];

/** A permanent cookie needs a lifetime. */
export const sessionPersistenceRules = (): ValidationRule[] => [
  rule(
    "!has(self.cookieConfig) || !has(self.cookieConfig.lifetimeType) || self.cookieConfig.lifetimeType != 'Permanent' || has(self.absoluteTimeout)",
    'AbsoluteTimeout must be specified when cookie lifetimeType is Permanent',
  ),
];

// --- GRPCRoute ---------------------------------------------------------------------------

const GRPC_SERVICE = '^(?i)\\.?[a-z_][a-z_0-9]*(\\.[a-z_][a-z_0-9]*)*$';
const GRPC_METHOD = '^[A-Za-z_][A-Za-z_0-9]*$';

/** A method match names a service or a method, and exact names are protobuf identifiers. */
export const grpcMethodMatchRules = (): ValidationRule[] => [
  rule('has(self.type) ? has(self.service) || has(self.method) : true', "One or both of 'service' or 'method' must be specified"),
  rule(
    `(!has(self.type) || self.type == 'Exact') && has(self.service) ? self.service.matches(r"""${GRPC_SERVICE}"""): true`,
    `service must only contain valid characters (matching ${GRPC_SERVICE})`,
  ),
  rule(
    `(!has(self.type) || self.type == 'Exact') && has(self.method) ? self.method.matches(r"""${GRPC_METHOD}"""): true`,
    `method must only contain valid characters (matching ${GRPC_METHOD})`,
  ),
];
