import { mapLines, DEFAULT_STYLE, sortKeysDeep } from '../../core/manifest/emit.js';
import type { GoJson, GoValue } from './proto/schema.js';

/*
 * How the real CLI prints a decoded proxy-API message: Go's json.MarshalIndent (two spaces, HTML
 * characters escaped, bytes as base64, 64-bit integers exact), or sigs.k8s.io/yaml (the same JSON
 * read back and written as block YAML with every mapping's keys sorted).
 */

function goString(s: string): string {
  return JSON.stringify(s)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function write(v: GoValue, indent: string): string {
  if (typeof v === 'string') return goString(v);
  if (typeof v === 'bigint' || typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v instanceof Uint8Array) return goString(Buffer.from(v).toString('base64'));
  const inner = indent + '  ';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[\n${v.map((item) => inner + write(item, inner)).join(',\n')}\n${indent}]`;
  }
  const keys = Object.keys(v);
  if (keys.length === 0) return '{}';
  return `{\n${keys.map((k) => `${inner}${goString(k)}: ${write(v[k]!, inner)}`).join(',\n')}\n${indent}}`;
}

/** json.MarshalIndent(m, "", "  "), without a trailing newline. */
export function goJsonIndent(m: GoJson): string {
  return write(m, '');
}

/** The JSON view made plain for YAML: bytes become their base64 text, as in the JSON. */
function plain(v: GoValue): unknown {
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

/** sigs.k8s.io/yaml.Marshal(m): block YAML, keys sorted, ending in a newline (`{}` for nothing). */
export function goYaml(m: GoJson): string {
  const sorted = sortKeysDeep(plain(m)) as Parameters<typeof mapLines>[0];
  if (Object.keys(sorted).length === 0) return '{}\n';
  return mapLines(sorted, 0, DEFAULT_STYLE).join('\n') + '\n';
}
