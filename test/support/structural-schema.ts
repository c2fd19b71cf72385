/**
 * A checker for the rules the Kubernetes API server applies to an apiextensions.k8s.io/v1
 * CRD's `openAPIV3Schema` ("Specifying a structural schema", plus the v1 schema
 * restrictions of the CRD validation), so a template's schemas are known to be accepted
 * without a cluster.
 *
 * It reports every violation as `<path>: <problem>`, with paths written the way the API
 * server writes them (`openAPIV3Schema.properties[spec].items.type`). An empty list means
 * the schema is structural.
 *
 * Covered:
 * - every node specifies a non-empty `type` (root, object fields, array items), except a node
 *   with `x-kubernetes-int-or-string: true` or `x-kubernetes-preserve-unknown-fields: true`
 *   (the exemption is for that node only: its own properties/items must still be typed);
 * - `type` is one of the JSON Schema types the API server knows, and `object` at the root;
 * - arrays have a single-schema `items`; `properties` and `additionalProperties` are exclusive;
 *   `additionalProperties` is neither `false` nor used at the root;
 * - inside allOf/anyOf/oneOf/not: no type, title, description, default, nullable,
 *   additionalProperties or x-kubernetes-* (except the two int-or-string `anyOf` patterns),
 *   no `metadata`, and every property/items mentioned there is also specified outside;
 * - `metadata` at the root may only restrict `name` and `generateName`; root
 *   `apiVersion`/`kind` must be strings;
 * - `x-kubernetes-int-or-string` nodes have no `type` and no preserve-unknown-fields;
 *   x-kubernetes-preserve-unknown-fields is only ever `true`; embedded resources are objects;
 * - list types: atomic/set/map only on arrays; map lists name scalar keys of object items;
 *   set lists hold scalars;
 * - keywords v1 CRDs reject: $ref, definitions, dependencies, deprecated, discriminator, id,
 *   patternProperties, readOnly, writeOnly, xml; `uniqueItems: true`;
 * - patterns compile as regular expressions without look-around or back-references (RE2);
 * - a `default` validates against its own node (type, enum, bounds, pattern, required) and
 *   holds no field that pruning would drop.
 */

type Node = Record<string, unknown>;

const TYPES = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean']);
const SCALAR_TYPES = new Set(['string', 'integer', 'number', 'boolean']);
const FORBIDDEN_KEYWORDS = ['$ref', 'definitions', 'dependencies', 'deprecated', 'discriminator', 'id', 'patternProperties', 'readOnly', 'writeOnly', 'xml'];
const JUNCTORS = ['allOf', 'anyOf', 'oneOf'] as const;
/** Keywords that describe the value's shape; value validations may only narrow it. */
const GENERICS_FORBIDDEN_IN_JUNCTORS = ['type', 'title', 'description', 'default', 'nullable', 'additionalProperties'];

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const key = (path: string, name: string) => `${path}.properties[${name}]`;

type Level = 'root' | 'field' | 'item';

export function structuralSchemaViolations(schema: unknown, rootPath = 'openAPIV3Schema'): string[] {
  const out: string[] = [];
  if (!isNode(schema)) return [`${rootPath}: must be an object`];
  checkNode(schema, 'root', rootPath, out);
  return out;
}

function checkNode(node: Node, level: Level, path: string, out: string[]): void {
  const type = node.type;
  const intOrString = node['x-kubernetes-int-or-string'] === true;
  const preserveUnknown = node['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = node['x-kubernetes-embedded-resource'] === true;

  checkKeywords(node, path, out);

  if (type !== undefined && (typeof type !== 'string' || !TYPES.has(type))) {
    out.push(`${path}.type: ${JSON.stringify(type)} is not a supported type`);
  }
  if (embedded && type !== 'object') {
    out.push(`${path}.type: must be object if x-kubernetes-embedded-resource is true`);
  } else if ((type === undefined || type === '') && !intOrString && !preserveUnknown) {
    const where = { root: 'at the root', field: 'for specified object fields', item: 'for specified array items' };
    out.push(`${path}.type: must not be empty ${where[level]}`);
  }
  if (level === 'root' && typeof type === 'string' && type !== '' && type !== 'object') {
    out.push(`${path}.type: must be object at the root`);
  }

  checkExtensions(node, path, out);
  checkShape(node, level, path, out);
  if ('default' in node) {
    for (const problem of valueProblems(node.default, node, 'default')) out.push(`${path}.${problem}`);
  }
  checkJunctors(node, path, out);
  if (level === 'root' || embedded) checkTypeMeta(node, level, path, out);

  // Recurse into the specified (structural) part of the schema.
  if (isNode(node.properties)) {
    for (const [name, child] of Object.entries(node.properties)) {
      if (isNode(child)) checkNode(child, 'field', key(path, name), out);
      else out.push(`${key(path, name)}: must be a schema object`);
    }
  }
  if (isNode(node.additionalProperties)) checkNode(node.additionalProperties, 'field', `${path}.additionalProperties`, out);
  if (isNode(node.items)) checkNode(node.items, 'item', `${path}.items`, out);
}

function checkKeywords(node: Node, path: string, out: string[]): void {
  for (const keyword of FORBIDDEN_KEYWORDS) {
    if (keyword in node) out.push(`${path}.${keyword}: is not supported in a CRD schema`);
  }
  if (node.uniqueItems === true) out.push(`${path}.uniqueItems: cannot be true (quadratic to check)`);
  if (typeof node.pattern === 'string') {
    const problem = patternProblem(node.pattern);
    if (problem) out.push(`${path}.pattern: ${problem}`);
  }
}

function patternProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
  } catch (e) {
    return `must be a valid regular expression (${(e as Error).message})`;
  }
  // The API server compiles patterns with Go's RE2, which has neither of these.
  if (/\(\?<?[=!]/.test(pattern)) return 'look-around is not supported by RE2';
  if (/\\[1-9]/.test(pattern)) return 'back-references are not supported by RE2';
  return undefined;
}

function checkExtensions(node: Node, path: string, out: string[]): void {
  const intOrString = node['x-kubernetes-int-or-string'];
  const preserve = node['x-kubernetes-preserve-unknown-fields'];
  if (preserve !== undefined && preserve !== true) {
    out.push(`${path}.x-kubernetes-preserve-unknown-fields: must be true or undefined`);
  }
  if (intOrString !== undefined && intOrString !== true) {
    out.push(`${path}.x-kubernetes-int-or-string: must be true or undefined`);
  }
  if (intOrString === true) {
    if (node.type !== undefined) out.push(`${path}.type: must be empty if x-kubernetes-int-or-string is true`);
    if (preserve === true) {
      out.push(`${path}.x-kubernetes-preserve-unknown-fields: must be false if x-kubernetes-int-or-string is true`);
    }
    if (node['x-kubernetes-embedded-resource'] === true) {
      out.push(`${path}.x-kubernetes-embedded-resource: must be false if x-kubernetes-int-or-string is true`);
    }
  }

  const listType = node['x-kubernetes-list-type'];
  const mapKeys = node['x-kubernetes-list-map-keys'];
  if (listType !== undefined) {
    if (!['atomic', 'set', 'map'].includes(listType as string)) {
      out.push(`${path}.x-kubernetes-list-type: must be atomic, set or map`);
    }
    if (node.type !== 'array') out.push(`${path}.x-kubernetes-list-type: must only be used on arrays`);
  }
  const items = isNode(node.items) ? node.items : undefined;
  if (listType === 'map') {
    if (!Array.isArray(mapKeys) || mapKeys.length === 0) {
      out.push(`${path}.x-kubernetes-list-map-keys: must not be empty if x-kubernetes-list-type is map`);
    } else if (items?.type !== 'object') {
      out.push(`${path}.items.type: must be object if x-kubernetes-list-type is map`);
    } else {
      const props = isNode(items.properties) ? items.properties : {};
      for (const k of mapKeys) {
        const field = props[String(k)];
        if (!isNode(field)) out.push(`${path}.x-kubernetes-list-map-keys: ${String(k)} is not a property of the items`);
        else if (!SCALAR_TYPES.has(field.type as string)) {
          out.push(`${path}.x-kubernetes-list-map-keys: ${String(k)} must be a scalar field`);
        }
      }
    }
  } else if (mapKeys !== undefined) {
    out.push(`${path}.x-kubernetes-list-map-keys: only allowed if x-kubernetes-list-type is map`);
  }
  if (listType === 'set' && items && !SCALAR_TYPES.has(items.type as string) && items['x-kubernetes-map-type'] !== 'atomic') {
    out.push(`${path}.items: set lists must hold scalars or atomic maps`);
  }

  const mapType = node['x-kubernetes-map-type'];
  if (mapType !== undefined) {
    if (mapType !== 'atomic' && mapType !== 'granular') {
      out.push(`${path}.x-kubernetes-map-type: must be atomic or granular`);
    }
    if (node.type !== 'object') out.push(`${path}.x-kubernetes-map-type: must only be used on objects`);
  }
}

function checkShape(node: Node, level: Level, path: string, out: string[]): void {
  const { type, items, properties, additionalProperties } = node;
  if (type === 'array' && items === undefined) out.push(`${path}.items: must be specified`);
  if (Array.isArray(items)) out.push(`${path}.items: must be a single schema, not a list`);
  if (items !== undefined && type !== undefined && type !== 'array') {
    out.push(`${path}.items: only allowed on arrays`);
  }
  if ((properties !== undefined || additionalProperties !== undefined) && type !== undefined && type !== 'object') {
    out.push(`${path}: properties/additionalProperties are only allowed on objects`);
  }
  if (additionalProperties === false) out.push(`${path}.additionalProperties: cannot be false`);
  if (additionalProperties !== undefined && properties !== undefined) {
    out.push(`${path}.additionalProperties: properties and additionalProperties are mutually exclusive`);
  }
  if (additionalProperties !== undefined && level === 'root') {
    out.push(`${path}.additionalProperties: must not be used at the root`);
  }
}

/** `metadata` at the root of a resource (or of an embedded one) may only narrow name/generateName. */
function checkTypeMeta(node: Node, level: Level, path: string, out: string[]): void {
  const props = isNode(node.properties) ? node.properties : {};
  for (const name of ['apiVersion', 'kind']) {
    const field = props[name];
    if (isNode(field) && field.type !== 'string') out.push(`${key(path, name)}.type: must be string`);
  }
  const metadata = props.metadata;
  if (!isNode(metadata)) return;
  const metaPath = key(path, 'metadata');
  if (metadata.type !== 'object') out.push(`${metaPath}.type: must be object`);
  if (level !== 'root') return;
  for (const [k, v] of Object.entries(metadata)) {
    if (k === 'type') continue;
    if (k === 'properties' && isNode(v) && Object.keys(v).every((p) => p === 'name' || p === 'generateName')) continue;
    out.push(`${metaPath}: must not specify anything other than name and generateName (found ${k})`);
  }
}

/** Checks the logical junctors of `node` against the node itself (what they may narrow). */
function checkJunctors(node: Node, path: string, out: string[]): void {
  const intOrString = node['x-kubernetes-int-or-string'] === true;
  for (const junctor of JUNCTORS) {
    const branches = node[junctor];
    if (branches === undefined) continue;
    if (!Array.isArray(branches)) {
      out.push(`${path}.${junctor}: must be a list of schemas`);
      continue;
    }
    // The two shapes an int-or-string node may spell out its alternatives with.
    const skipIntOrStringAnyOf = junctor === 'anyOf' && intOrString && isIntOrStringAnyOf(branches);
    branches.forEach((branch, i) => {
      const branchPath = `${path}.${junctor}[${i}]`;
      if (skipIntOrStringAnyOf) return;
      if (!isNode(branch)) {
        out.push(`${branchPath}: must be a schema object`);
        return;
      }
      const skipNestedAnyOf = junctor === 'allOf' && i === 0 && intOrString && isIntOrStringAnyOf(branch.anyOf);
      checkNested(branch, node, branchPath, out, skipNestedAnyOf);
    });
  }
  if (node.not !== undefined) {
    if (isNode(node.not)) checkNested(node.not, node, `${path}.not`, out, false);
    else out.push(`${path}.not: must be a schema object`);
  }
}

function isIntOrStringAnyOf(branches: unknown): boolean {
  if (!Array.isArray(branches) || branches.length !== 2) return false;
  const only = (b: unknown, type: string) => isNode(b) && b.type === type && Object.keys(b).length === 1;
  return only(branches[0], 'integer') && only(branches[1], 'string');
}

/**
 * A schema under a junctor: value validations only, and nothing the outer schema does not
 * specify. `outer` is the structural schema at the same position (undefined when missing,
 * which has already been reported).
 */
function checkNested(nested: Node, outer: Node | undefined, path: string, out: string[], skipAnyOf: boolean): void {
  checkKeywords(nested, path, out);
  for (const generic of GENERICS_FORBIDDEN_IN_JUNCTORS) {
    if (generic in nested) out.push(`${path}.${generic}: must be undefined to be structural`);
  }
  for (const k of Object.keys(nested)) {
    if (k.startsWith('x-kubernetes-')) out.push(`${path}.${k}: must be undefined to be structural`);
  }

  if (isNode(nested.properties)) {
    for (const [name, child] of Object.entries(nested.properties)) {
      const childPath = key(path, name);
      if (name === 'metadata') {
        out.push(`${childPath}: must not be specified in a nested context`);
        continue;
      }
      const outerProps = outer && isNode(outer.properties) ? outer.properties : undefined;
      const outerChild = outerProps?.[name];
      if (outer && !isNode(outerChild)) {
        out.push(`${childPath}: must also be specified outside of allOf/anyOf/oneOf/not`);
      }
      if (isNode(child)) checkNested(child, isNode(outerChild) ? outerChild : undefined, childPath, out, false);
    }
  }
  if (nested.items !== undefined) {
    const outerItems = outer && isNode(outer.items) ? outer.items : undefined;
    if (outer && !outerItems) out.push(`${path}.items: must also be specified outside of allOf/anyOf/oneOf/not`);
    if (isNode(nested.items)) checkNested(nested.items, outerItems, `${path}.items`, out, false);
  }

  // Junctors nested in junctors still constrain the same value as `outer`.
  for (const junctor of JUNCTORS) {
    const branches = nested[junctor];
    if (!Array.isArray(branches)) continue;
    if (junctor === 'anyOf' && skipAnyOf) continue;
    branches.forEach((b, i) => {
      if (isNode(b)) checkNested(b, outer, `${path}.${junctor}[${i}]`, out, false);
    });
  }
  if (isNode(nested.not)) checkNested(nested.not, outer, `${path}.not`, out, false);
}

/**
 * Why `value` would not be accepted where `schema` applies (a light validator: enough for
 * the defaults templates write and for test fixtures, not a full OpenAPI implementation:
 * no junctors, formats or list-type uniqueness).
 */
export function valueProblems(value: unknown, schema: Node, path: string): string[] {
  const problems: string[] = [];
  const intOrString = schema['x-kubernetes-int-or-string'] === true;
  const typeOk: Record<string, (v: unknown) => boolean> = {
    string: (v) => typeof v === 'string',
    integer: (v) => Number.isInteger(v),
    number: (v) => typeof v === 'number',
    boolean: (v) => typeof v === 'boolean',
    object: isNode,
    array: Array.isArray,
  };
  if (intOrString) {
    if (!Number.isInteger(value) && typeof value !== 'string') problems.push(`${path}: must be an integer or a string`);
  } else if (typeof schema.type === 'string' && typeOk[schema.type] && !typeOk[schema.type](value)) {
    return [`${path}: must be of type ${schema.type}`];
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    problems.push(`${path}: must be one of the enum values`);
  }
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) problems.push(`${path}: shorter than minLength`);
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) problems.push(`${path}: longer than maxLength`);
    if (typeof schema.pattern === 'string' && !patternProblem(schema.pattern) && !new RegExp(schema.pattern).test(value)) {
      problems.push(`${path}: does not match the pattern`);
    }
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) problems.push(`${path}: below minimum`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) problems.push(`${path}: above maximum`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) problems.push(`${path}: more than maxItems`);
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) problems.push(`${path}: fewer than minItems`);
    if (isNode(schema.items)) {
      const items = schema.items;
      value.forEach((v, i) => problems.push(...valueProblems(v, items, `${path}[${i}]`)));
    }
  }
  if (isNode(value)) {
    const props = isNode(schema.properties) ? schema.properties : {};
    for (const field of Array.isArray(schema.required) ? schema.required : []) {
      if (!(String(field) in value)) problems.push(`${path}: lacks required field ${String(field)}`);
    }
    for (const [k, v] of Object.entries(value)) {
      const fieldSchema = isNode(props[k]) ? props[k] : isNode(schema.additionalProperties) ? schema.additionalProperties : undefined;
      if (fieldSchema) problems.push(...valueProblems(v, fieldSchema, `${path}.${k}`));
      else if (schema['x-kubernetes-preserve-unknown-fields'] !== true && schema.additionalProperties !== true) {
        problems.push(`${path}.${k}: unknown field, would be pruned`);
      }
    }
  }
  return problems;
}
