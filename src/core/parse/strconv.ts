import { parsed, refused, type Parsed } from './parsed.js';

/*
 * Go's strconv, as far as flags need it: ParseBool's twelve spellings and Quote (`%q`, which
 * strconv's errors and pflag use for a refused value). One small module: the CLI's start-up (the
 * kit's `--bool=word` rewriting) loads it.
 */

const SHORT_ESCAPES: ReadonlyMap<string, string> = new Map([
  ['\x07', '\\a'],
  ['\b', '\\b'],
  ['\f', '\\f'],
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
  ['\v', '\\v'],
  ['"', '\\"'],
  ['\\', '\\\\'],
]);

/** strconv.IsPrint: letters, marks, numbers, punctuation, symbols, and the ASCII space only. */
const PRINTABLE = /^(?: |[\p{L}\p{M}\p{N}\p{P}\p{S}])$/u;

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** strconv.Quote: printable characters as they are, the rest as `\n`, `\x7f`, `\u00a0` or `\U0001f600`-style escapes. */
export function strconvQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    const short = SHORT_ESCAPES.get(ch);
    if (short !== undefined) out += short;
    else if (PRINTABLE.test(ch)) out += ch;
    else if (code < 0x80) out += `\\x${hex(code, 2)}`;
    else out += code > 0xffff ? `\\U${hex(code, 8)}` : `\\u${hex(code, 4)}`;
  }
  return `${out}"`;
}

/** strconv.ParseBool's spellings: nothing else is a boolean to Go (not `yes`, not `on`, not ` true`). */
const BOOL_WORDS: ReadonlyMap<string, boolean> = new Map([
  ['1', true],
  ['t', true],
  ['T', true],
  ['TRUE', true],
  ['true', true],
  ['True', true],
  ['0', false],
  ['f', false],
  ['F', false],
  ['FALSE', false],
  ['false', false],
  ['False', false],
]);

/** strconv.ParseBool: the boolean, or `strconv.ParseBool: parsing "x": invalid syntax`. */
export function goBool(s: string): Parsed<boolean> {
  const b = BOOL_WORDS.get(s);
  return b === undefined ? refused(`strconv.ParseBool: parsing ${strconvQuote(s)}: invalid syntax`) : parsed(b);
}

/**
 * fmt's `%.<digits>f`: like toFixed, except that an exact tie rounds to the even digit, as Go's
 * strconv does (`%.0f` of 0.5 is `0`, of 95.5 is `96`; `%.2f` of 0.125 is `0.12`). NaN and the
 * infinities print as Go prints them.
 */
export function goFixed(x: number, digits: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  const rounded = x.toFixed(digits);
  // A double's decimal expansion is finite: a tie shows as a 5 followed only by zeros.
  const exact = Math.abs(x).toFixed(Math.min(100, digits + 60));
  const rest = exact.slice(exact.length - (Math.min(100, digits + 60) - digits));
  if (!/^50*$/.test(rest)) return rounded;
  const truncated = exact.slice(0, exact.length - rest.length).replace(/\.$/, '');
  const lastDigit = Number(truncated.replace('.', '').slice(-1));
  if (lastDigit % 2 === 1) return rounded;
  return `${x < 0 ? '-' : ''}${truncated}`;
}
