import { mapLines, DEFAULT_STYLE } from '../../core/manifest/emit.js';
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
  const entries = Object.entries(v);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, x]) => `${inner}${goString(k)}: ${write(x, inner)}`).join(',\n')}\n${indent}}`;
}

/** json.MarshalIndent(m, "", "  "), without a trailing newline. */
export function goJsonIndent(m: GoJson): string {
  return write(m, '');
}

/**
 * go-yaml v2's order of mapping keys (its keyList.Less): letters compare by code point, a
 * non-letter sorts before a letter, runs of digits compare as numbers.
 */
export function goYamlKeyLess(a: string, b: string): boolean {
  // Go compares runes: code points, not UTF-16 units.
  const ar = Array.from(a);
  const br = Array.from(b);
  const isLetter = (c: string) => /\p{L}/u.test(c);
  const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
  for (let i = 0; i < ar.length && i < br.length; i++) {
    const x = ar[i] ?? '';
    const y = br[i] ?? '';
    if (x === y) continue;
    const xl = isLetter(x);
    const yl = isLetter(y);
    if (xl && yl) return x < y;
    if (xl || yl) return yl;
    let an = 0;
    let bn = 0;
    if (x === '0' || y === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + Number(ar[ai]);
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return x < y;
  }
  return ar.length < br.length;
}

/** The JSON view as go-yaml sees it after reading the JSON back: keys sorted, bytes as base64 text. */
function yamlView(v: GoValue): unknown {
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (Array.isArray(v)) return v.map(yamlView);
  if (typeof v === 'object') {
    const entries = Object.entries(v).sort(([a], [b]) => (goYamlKeyLess(a, b) ? -1 : goYamlKeyLess(b, a) ? 1 : 0));
    return Object.fromEntries(entries.map(([k, x]) => [k, yamlView(x)]));
  }
  return v;
}

/** sigs.k8s.io/yaml.Marshal(m): block YAML, keys sorted, ending in a newline (`{}` for nothing). */
export function goYaml(m: GoJson): string {
  const view = yamlView(m) as Parameters<typeof mapLines>[0];
  if (Object.keys(view).length === 0) return '{}\n';
  return mapLines(view, 0, DEFAULT_STYLE).join('\n') + '\n';
}
