import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';

/**
 * A rendered manifest flattened to one line per field: `Kind/name[ -n ns]` → `path: value`.
 * Compared with a reviewed fixture, it names every field that appeared, disappeared or changed,
 * so drift from what the real charts render shows up field by field instead of as a text diff.
 */
export type Inventory = Record<string, Record<string, unknown>>;

interface Obj {
  kind?: string;
  metadata?: { name?: string; namespace?: string };
  data?: Record<string, unknown>;
}

/** A value that differs on every run (certificates, keys, their digests) is kept as a marker only; an empty one stays. */
export const VOLATILE = '<volatile>';

const VOLATILE_KEY = /(caBundle|checksum\/[^.]*|trust-root-sha256|PEM)$/;
const isVolatile = (key: string, value: unknown) =>
  typeof value === 'string' && value !== '' && (VOLATILE_KEY.test(key) || value.includes('-----BEGIN') || /^[A-Za-z0-9+/=]{200,}$/.test(value));

function flatten(node: unknown, prefix: string, out: Record<string, unknown>): void {
  const key = prefix;
  if (Array.isArray(node)) {
    if (node.length === 0) out[prefix] = [];
    node.forEach((item, i) => flatten(item, `${prefix}[${i}]`, out));
  } else if (node !== null && typeof node === 'object') {
    const entries = Object.entries(node);
    if (entries.length === 0) out[prefix] = {};
    for (const [k, v] of entries) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out[prefix] = isVolatile(key, node) ? VOLATILE : node;
  }
}

export const refOf = (o: Obj): string => `${o.kind}/${o.metadata?.name}${o.metadata?.namespace ? ` -n ${o.metadata.namespace}` : ''}`;

/**
 * The inventory of a `---` stream. Secret data is volatile; a ConfigMap key holding YAML that is
 * named in `yamlKeys` (linkerd-config's `values`) is parsed and flattened below its key.
 */
export function inventoryOf(stream: string, yamlKeys: readonly string[] = ['values']): Inventory {
  const inv: Inventory = {};
  for (const doc of yaml.loadAll(stream) as Obj[]) {
    if (doc === null || typeof doc !== 'object') continue;
    const fields: Record<string, unknown> = {};
    const { data, ...rest } = doc;
    flatten(rest, '', fields);
    for (const [k, v] of Object.entries(data ?? {})) {
      if (doc.kind === 'Secret') fields[`data.${k}`] = VOLATILE;
      else if (doc.kind === 'ConfigMap' && yamlKeys.includes(k) && typeof v === 'string') flatten(yaml.load(v), `data.${k}`, fields);
      else flatten(v, `data.${k}`, fields);
    }
    inv[refOf(doc)] = fields;
  }
  return inv;
}

const show = (v: unknown) => JSON.stringify(v);

/** Every difference, one line each: objects missing or extra, then fields missing, extra or changed. */
export function inventoryDiff(expected: Inventory, actual: Inventory): string[] {
  const out: string[] = [];
  for (const ref of Object.keys(expected)) if (!(ref in actual)) out.push(`${ref}: object missing from the render`);
  for (const ref of Object.keys(actual)) if (!(ref in expected)) out.push(`${ref}: object not in the expectation`);
  for (const [ref, want] of Object.entries(expected)) {
    const got = actual[ref];
    if (!got) continue;
    for (const [p, v] of Object.entries(want)) {
      if (!(p in got)) out.push(`${ref}: ${p} missing (expected ${show(v)})`);
      else if (show(got[p]) !== show(v)) out.push(`${ref}: ${p} is ${show(got[p])}, expected ${show(v)}`);
    }
    for (const p of Object.keys(got)) if (!(p in want)) out.push(`${ref}: ${p} not expected (rendered ${show(got[p])})`);
  }
  return out;
}

/** Reads the reviewed fixture, or rewrites it under `UPDATE_GOLDEN=1` (review the diff). */
export function expectedInventory(file: string, actual: Inventory): Inventory {
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, yaml.dump(actual, { lineWidth: -1, noRefs: true, sortKeys: false }));
    return actual;
  }
  if (!existsSync(file)) throw new Error(`missing fixture ${file}; run with UPDATE_GOLDEN=1 and review it`);
  return yaml.load(readFileSync(file, 'utf8')) as Inventory;
}
