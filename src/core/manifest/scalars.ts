/*
 * How a string we add to a user's manifest is written: plain when that is unambiguous, double-quoted
 * when a YAML 1.1 reader (kubectl, go-yaml) or a YAML 1.2 reader would take it for something other
 * than a string (`"4143"`, `"true"`, `"on"`, `"0777"`), a literal block (`|`, `|-`, `|+`) for
 * multi-line text. Go's yaml emitter makes the same choices, so added lines read like linkerd's own.
 */

export type ScalarStyle = 'PLAIN' | 'QUOTE_DOUBLE' | 'BLOCK_LITERAL';

/** Plain scalars that a YAML 1.1 or 1.2 core schema resolves to null, a bool, a number or a timestamp. */
const NON_STRING: readonly RegExp[] = [
  /^(?:~|null|Null|NULL)$/,
  /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/,
  /^[-+]?(?:0b[01_]+|0o?[0-7_]+|0x[0-9a-fA-F_]+|(?:0|[1-9][0-9_]*))$/,
  /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/,
  /^[-+]?(?:\.[0-9_]+|[0-9][0-9_]*(?:\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?$/,
  // YAML 1.1 floats as the yaml library reads them: digits are optional (`.`, `-.`, `e0`, `.e1`).
  /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*$/,
  /^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$/,
  /^[-+]?\.(?:inf|Inf|INF)$/,
  /^\.(?:nan|NaN|NAN)$/,
  /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}/,
  /^(?:<<|=)$/,
];

/** Characters that may not start a plain scalar (`-`, `?`, `:` may, when followed by a non-space). */
const INDICATOR_START = /^[,[\]{}#&*!|>'"%@`]/;

function plainSyntaxOk(s: string): boolean {
  if (s === '' || s !== s.trim()) return false;
  // Only printable characters without tabs; anything else is safest double-quoted.
  if (/[^\x20-\x7e\u00a0-\ud7ff\ue000-\ufffd]/u.test(s)) return false;
  if (INDICATOR_START.test(s)) return false;
  if (/^[-?:](?:\s|$)/.test(s)) return false;
  if (s.includes(': ') || s.includes(' #') || s.endsWith(':')) return false;
  if (s.startsWith('---') || s.startsWith('...')) return false;
  return true;
}

export function resolvesToNonString(s: string): boolean {
  return NON_STRING.some((re) => re.test(s));
}

const styleMemo = new Map<string, ScalarStyle>();

/** The style a string value is written in (memoised: a proxy spec repeats the same strings). */
export function scalarStyle(s: string): ScalarStyle {
  let style = styleMemo.get(s);
  if (style === undefined) {
    style = computeStyle(s);
    if (styleMemo.size > 50_000) styleMemo.clear();
    styleMemo.set(s, style);
  }
  return style;
}

function computeStyle(s: string): ScalarStyle {
  if (s.includes('\n')) {
    // A literal block cannot start with a space (it would need an indentation indicator) or hold \r.
    const ok = !/^[ \t]/.test(s) && !s.includes('\r') && !/[^\n\t\x20-\x7e\u00a0-\ud7ff\ue000-\ufffd]/u.test(s);
    return ok ? 'BLOCK_LITERAL' : 'QUOTE_DOUBLE';
  }
  return plainSyntaxOk(s) && !resolvesToNonString(s) ? 'PLAIN' : 'QUOTE_DOUBLE';
}

/** Double-quoted YAML is a superset of JSON strings. */
export function doubleQuoted(s: string): string {
  return JSON.stringify(s);
}

/** A mapping key as written in block style. */
export function renderKey(key: string): string {
  return scalarStyle(key) === 'PLAIN' ? key : doubleQuoted(key);
}

/**
 * A literal block: the header (`|`, `|-` or `|+`) and the content lines, to be indented by the caller
 * one level deeper than the key or dash that owns it.
 */
export function literalBlock(s: string): { header: string; lines: string[] } {
  const trailing = s.length - s.replace(/\n+$/, '').length;
  const header = trailing === 0 ? '|-' : trailing === 1 ? '|' : '|+';
  const body = trailing === 0 ? s : s.slice(0, s.length - trailing);
  const lines = body.split('\n');
  for (let i = 1; i < trailing; i++) lines.push('');
  return { header, lines };
}

/** A scalar that fits on the line of its key or dash; undefined for multi-line strings. */
export function inlineScalar(v: string | number | boolean | null | bigint): string | undefined {
  if (v === null) return 'null';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  switch (scalarStyle(v)) {
    case 'PLAIN':
      return v;
    case 'QUOTE_DOUBLE':
      return doubleQuoted(v);
    default:
      return undefined;
  }
}
