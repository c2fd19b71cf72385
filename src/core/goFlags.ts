import { UserError } from './errors.js';

/*
 * Go's words for flag values, in one small module the CLI's start-up can load: strconv.ParseBool's
 * spellings, %q quoting, and pflag's error for a value it refuses — `invalid argument "V" for
 * "--flag" flag: reason`, the flag named `-s, --name` when it has a shorthand.
 */

const BOOL_WORDS: Readonly<Record<string, boolean>> = {
  '1': true,
  t: true,
  T: true,
  TRUE: true,
  true: true,
  True: true,
  '0': false,
  f: false,
  F: false,
  FALSE: false,
  false: false,
  False: false,
};

/** strconv.ParseBool's accepted spellings, or undefined. */
export function parseGoBool(s: string): boolean | undefined {
  return Object.prototype.hasOwnProperty.call(BOOL_WORDS, s) ? BOOL_WORDS[s] : undefined;
}

const GO_ESCAPES: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

/** strconv.IsPrint: letters, marks, numbers, punctuation and symbols (and the ASCII space). */
const GO_PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** Go's strconv.Quote: printable characters as they are, the rest escaped. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const escaped = GO_ESCAPES[ch];
    const code = ch.codePointAt(0) ?? 0;
    if (escaped !== undefined) out += escaped;
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (ch !== ' ' && !GO_PRINTABLE.test(ch)) {
      out += code > 0xffff ? `\\U${code.toString(16).padStart(8, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return `${out}"`;
}

/** A flag as pflag names it in errors. */
export interface FlagName {
  name: string;
  short?: string;
}

/** `-s, --name` or `--name`, pflag's flagName in FlagSet.Set. */
export function pflagName(flag: FlagName | string): string {
  const f = typeof flag === 'string' ? { name: flag } : flag;
  return f.short ? `-${f.short}, --${f.name}` : `--${f.name}`;
}

/** The one error for a flag value that does not parse or is out of range. */
export function invalidArgument(value: string, flag: FlagName | string, reason: string): UserError {
  return new UserError(`invalid argument ${goQuote(value)} for "${pflagName(flag)}" flag: ${reason}`);
}

/** strconv.ParseBool's error text for `value`. */
export function parseBoolReason(value: string): string {
  return `strconv.ParseBool: parsing ${goQuote(value)}: invalid syntax`;
}
