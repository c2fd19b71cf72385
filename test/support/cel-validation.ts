/**
 * Evaluates a CRD schema's `x-kubernetes-validations` against an object the way the API
 * server does, with @bufbuild/cel as the CEL engine:
 * - the object is defaulted from the schema first (the server validates defaulted objects);
 * - every rule runs once per value at its schema node (each list item, each present field),
 *   with `self` bound to that value; absent optional fields are not validated;
 * - property names are escaped as Kubernetes escapes them for CEL (`namespace` is a CEL
 *   keyword and reads `__namespace__`; `-`, `.`, `/`, `__` get `__dash__` etc.), integers
 *   are CEL ints, maps (additionalProperties) keep their keys;
 * - rules that mention `oldSelf` are transition rules: they run only on an update, and only
 *   where the new value correlates with an old one (same object field, or the same key in a
 *   map-list); atomic lists do not correlate;
 * - a rule that fails to evaluate (e.g. a missing field) rejects the object, as on the server.
 */
import { celEnv, isCelError, parse, plan, type CelInput, type CelResult } from '@bufbuild/cel';

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface SchemaRule {
  /** Where the rule sits in the schema, e.g. `spec.rules[].filters[]`. */
  schemaPath: string;
  index: number;
  rule: string;
  message: string;
  /** Mentions oldSelf, so it only runs on updates. */
  transition: boolean;
}

export interface Violation {
  /** The value the rule rejected, e.g. `spec.rules[0].filters[1]`. */
  field: string;
  message: string;
  rule: SchemaRule;
  /** Set when the rule could not be evaluated rather than returned false. */
  error?: string;
}

const usesOldSelf = (expression: string) => /\boldSelf\b/.test(expression);

/** Every rule of a schema, in walk order. */
export function schemaRules(schema: unknown, path = ''): SchemaRule[] {
  if (!isNode(schema)) return [];
  const here = rulesAt(schema, path);
  const props = isNode(schema.properties) ? Object.entries(schema.properties) : [];
  return [
    ...here,
    ...props.flatMap(([name, child]) => schemaRules(child, path ? `${path}.${name}` : name)),
    ...schemaRules(schema.items, `${path}[]`),
    ...(isNode(schema.additionalProperties) ? schemaRules(schema.additionalProperties, `${path}{}`) : []),
  ];
}

function rulesAt(schema: Node, schemaPath: string): SchemaRule[] {
  const list = schema['x-kubernetes-validations'];
  if (!Array.isArray(list)) return [];
  return list.filter(isNode).map((r, index) => {
    const rule = String(r.rule);
    return { schemaPath, index, rule, message: typeof r.message === 'string' ? r.message : `failed rule: ${rule}`, transition: usesOldSelf(rule) };
  });
}

/**
 * Fields a rule reads directly off `self` (`self.a`, `has(self.a)`) that the node does not
 * declare: the API server's type check refuses such a rule when the CRD is created. Calls
 * (`self.all(...)`, `self.startsWith(...)`) are not fields.
 */
export function undeclaredSelfFields(schema: unknown, rule: string): string[] {
  const props = isNode(schema) && isNode(schema.properties) ? Object.keys(schema.properties) : [];
  const declared = new Set(props.map(escapePropertyName));
  const read = [...rule.matchAll(/\bself\.([A-Za-z_][A-Za-z0-9_]*)\b(?!\s*\()/g)].map((m) => m[1] ?? '');
  return [...new Set(read)].filter((name) => !declared.has(name));
}

/** The schema node at a path `schemaRules` reported. */
export function nodeAt(schema: unknown, schemaPath: string): unknown {
  const steps = schemaPath.match(/\[\]|\{\}|[^.[{]+/g) ?? [];
  return steps.reduce<unknown>((node, step) => {
    if (!isNode(node)) return undefined;
    if (step === '[]') return node.items;
    if (step === '{}') return node.additionalProperties;
    return isNode(node.properties) ? node.properties[step] : undefined;
  }, schema);
}

type Program = (ctx: Record<string, CelInput>) => CelResult;
const programs = new Map<string, Program>();
const env = celEnv();

/** Compiles a rule once; a syntax error throws, naming the rule. */
export function compileRule(rule: string): Program {
  let program = programs.get(rule);
  if (!program) {
    try {
      program = plan(env, parse(rule));
    } catch (e) {
      throw new Error(`rule does not compile: ${rule}: ${(e as Error).message}`, { cause: e });
    }
    programs.set(rule, program);
  }
  return program;
}

/** Applies the schema's defaults to a copy of `value`, including inside defaulted values. */
export function withDefaults(value: unknown, schema: unknown): unknown {
  if (!isNode(schema)) return value;
  if (Array.isArray(value)) return value.map((v) => withDefaults(v, schema.items));
  if (!isNode(value)) return value;
  const out: Node = { ...value };
  const props = isNode(schema.properties) ? schema.properties : {};
  for (const [name, child] of Object.entries(props)) {
    if (out[name] === undefined && isNode(child) && child.default !== undefined) out[name] = structuredClone(child.default);
    if (out[name] !== undefined) out[name] = withDefaults(out[name], child);
  }
  if (isNode(schema.additionalProperties)) {
    for (const k of Object.keys(out)) if (!(k in props)) out[k] = withDefaults(out[k], schema.additionalProperties);
  }
  return out;
}

const CEL_KEYWORDS = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

const ESCAPES: Record<string, string> = { __: '__underscores__', '.': '__dot__', '-': '__dash__', '/': '__slash__' };

/** How a property name reads in CEL, or undefined when Kubernetes leaves it inaccessible. */
export function escapePropertyName(name: string): string | undefined {
  if (CEL_KEYWORDS.has(name)) return `__${name}__`;
  if (!/^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/.test(name)) return undefined;
  return name.replace(/__|[./-]/g, (m) => ESCAPES[m] ?? m);
}

/** The CEL value of `value` under `schema`. */
function toCel(value: unknown, schema: unknown): CelInput {
  const s = isNode(schema) ? schema : {};
  if (typeof value === 'number' && Number.isInteger(value) && (s.type === 'integer' || s['x-kubernetes-int-or-string'] === true)) {
    return BigInt(value);
  }
  if (Array.isArray(value)) return value.map((v) => toCel(v, s.items));
  if (isNode(value)) {
    if (isNode(s.additionalProperties)) {
      const items = s.additionalProperties;
      return new Map(Object.entries(value).map(([k, v]) => [k, toCel(v, items)]));
    }
    const props = isNode(s.properties) ? s.properties : {};
    const out: Record<string, CelInput> = {};
    for (const [k, v] of Object.entries(value)) {
      const name = escapePropertyName(k);
      if (name !== undefined) out[name] = toCel(v, props[k]);
    }
    return out;
  }
  return value as CelInput;
}

/** The old list item matching `item` by the list's map keys, if the list is a map-list. */
function correlatedItem(schema: Node, item: unknown, oldList: unknown): unknown {
  const keys = schema['x-kubernetes-list-map-keys'];
  if (schema['x-kubernetes-list-type'] !== 'map' || !Array.isArray(keys) || !isNode(item) || !Array.isArray(oldList)) {
    return undefined;
  }
  return oldList.find((o) => isNode(o) && keys.every((k) => JSON.stringify(o[String(k)]) === JSON.stringify(item[String(k)])));
}

/**
 * The violations of every rule in `schema` for `object` (an object of the schema's root), on
 * create, or on update from `oldObject`.
 */
export function celViolations(schema: unknown, object: unknown, oldObject?: unknown): Violation[] {
  const out: Violation[] = [];
  const old = oldObject === undefined ? undefined : withDefaults(oldObject, schema);
  visit(schema, withDefaults(object, schema), old, oldObject !== undefined, '', '', out);
  return out;
}

function visit(schema: unknown, value: unknown, old: unknown, correlated: boolean, field: string, schemaPath: string, out: Violation[]): void {
  if (!isNode(schema) || value === undefined) return;
  for (const rule of rulesAt(schema, schemaPath)) {
    if (rule.transition && !correlated) continue;
    const bindings: Record<string, CelInput> = { self: toCel(value, schema) };
    if (rule.transition) bindings.oldSelf = toCel(old, schema);
    const result = compileRule(rule.rule)(bindings);
    if (isCelError(result)) out.push({ field, message: rule.message, rule, error: result.message });
    else if (result !== true) out.push({ field, message: rule.message, rule });
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      const oldItem = correlatedItem(schema, item, old);
      visit(schema.items, item, oldItem, oldItem !== undefined, `${field}[${i}]`, `${schemaPath}[]`, out);
    });
    return;
  }
  if (!isNode(value)) return;
  const props = isNode(schema.properties) ? schema.properties : {};
  const oldNode = isNode(old) ? old : undefined;
  for (const [name, child] of Object.entries(value)) {
    const childSchema = props[name] ?? (isNode(schema.additionalProperties) ? schema.additionalProperties : undefined);
    const childPath = name in props ? (schemaPath ? `${schemaPath}.${name}` : name) : `${schemaPath}{}`;
    const oldChild = oldNode?.[name];
    visit(childSchema, child, oldChild, correlated && oldChild !== undefined, field ? `${field}.${name}` : name, childPath, out);
  }
}
