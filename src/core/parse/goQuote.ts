/*
 * Go's two quotings that appear in the reasons its parsers give: strconv.Quote (`%q`, used by
 * strconv's errors and by pflag for the refused value) and the time package's own, simpler one.
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

/** The time package's quote: `"` and `\` escaped, every byte of a control or non-ASCII character as `\xNN`. */
export function timeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x20 || code >= 0x80) {
      for (const byte of Buffer.from(ch, 'utf8')) out += `\\x${hex(byte, 2)}`;
    } else out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
  }
  return `${out}"`;
}
