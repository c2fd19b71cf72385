import { UserError } from '../errors.js';
import { invalidArgument } from './invalidArgument.js';
import { parsed, refused, type Parsed } from './parsed.js';

/*
 * Go's time.Duration: ParseDuration's syntax (`24h`, `1h30m`, `1.5s`, `300ms`, `-1.5h`, `.5s`) and
 * error texts, and String()'s form (`24h0m0s`). linkerd stores durations given by flags in the
 * String() form, so `--identity-issuance-lifetime 24h` and the chart default `24h0m0s` compare
 * equal. Nanoseconds are BigInt: a year overflows 2^53 ns.
 */

const UNIT_NS: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1_000n],
  ['µs', 1_000n], // U+00B5 micro sign
  ['μs', 1_000n], // U+03BC greek mu
  ['ms', 1_000_000n],
  ['s', 1_000_000_000n],
  ['m', 60_000_000_000n],
  ['h', 3_600_000_000_000n],
]);

/** The time package's own quote (not strconv.Quote): `"` and `\` escaped, every byte of a control or non-ASCII character as `\xNN`. */
export function timeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x20 || code >= 0x80) {
      for (const byte of Buffer.from(ch, 'utf8')) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    } else out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
  }
  return `${out}"`;
}

/** 1<<63: a negative duration may reach it, a positive one stops one short. */
const LIMIT = 1n << 63n;

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** Go's leadingInt: the leading digits, or undefined past 1<<63. */
function leadingInt(s: string): [bigint | undefined, string] {
  let i = 0;
  let x = 0n;
  for (; isDigit(s[i]); i++) {
    x = x * 10n + BigInt(s.charCodeAt(i) - 48);
    if (x > LIMIT) return [undefined, s];
  }
  return [x, s.slice(i)];
}

/** Go's leadingFraction: the digits after the point; past 1<<63 it stops adding precision. */
function leadingFraction(s: string): [bigint, number, string] {
  let i = 0;
  let x = 0n;
  let scale = 1;
  let overflow = false;
  for (; isDigit(s[i]); i++) {
    if (overflow) continue;
    const y = x * 10n + BigInt(s.charCodeAt(i) - 48);
    if (x > (LIMIT - 1n) / 10n || y > LIMIT) {
      overflow = true;
      continue;
    }
    x = y;
    scale *= 10;
  }
  return [x, scale, s.slice(i)];
}

/** time.ParseDuration: nanoseconds, or Go's reason (`time: invalid duration "x"`, `time: missing unit …`). */
export function goDuration(orig: string): Parsed<bigint> {
  const invalid = refused<bigint>(`time: invalid duration ${timeQuote(orig)}`);
  let s = orig;
  let negative = false;
  if (s[0] === '-' || s[0] === '+') {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return parsed(0n);
  if (s === '') return invalid;
  let total = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) return invalid;
    const before = s.length;
    const [whole, afterInt] = leadingInt(s);
    if (whole === undefined) return invalid;
    s = afterInt;
    const pre = s.length !== before;
    let frac = 0n;
    let scale = 1;
    let post = false;
    if (s[0] === '.') {
      s = s.slice(1);
      const at = s.length;
      [frac, scale, s] = leadingFraction(s);
      post = s.length !== at;
    }
    if (!pre && !post) return invalid; // no digits, e.g. ".s"
    let i = 0;
    while (i < s.length && s[i] !== '.' && !isDigit(s[i])) i++;
    if (i === 0) return refused(`time: missing unit in duration ${timeQuote(orig)}`);
    const unitName = s.slice(0, i);
    s = s.slice(i);
    const unit = UNIT_NS.get(unitName);
    if (unit === undefined) return refused(`time: unknown unit ${timeQuote(unitName)} in duration ${timeQuote(orig)}`);
    if (whole > LIMIT / unit) return invalid;
    let v = whole * unit;
    // Go computes the fraction in float64 (nanosecond-exact up to an hour's worth); so does this.
    if (frac > 0n) v += BigInt(Math.trunc(Number(frac) * (Number(unit) / scale)));
    if (v > LIMIT) return invalid;
    total += v;
    if (total > LIMIT) return invalid;
  }
  if (negative) return parsed(-total);
  return total > LIMIT - 1n ? invalid : parsed(total);
}

/** time.ParseDuration, throwing Go's reason as a UserError (for values already named by their caller). */
export function parseGoDuration(s: string): bigint {
  const d = goDuration(s);
  if (!d.ok) throw new UserError(d.reason);
  return d.value;
}

/** The units of a certificate-validity flag: days, and Go's (which invalidArgument lists for the others). */
const VALIDITY_UNITS = 'd (24h), h, m, s, ms, us (or µs), ns';

/** Go's reason for a validity that does not parse, with the units that exist when the unit was the problem. */
function validityReason(reason: string): string {
  return /^time: (unknown|missing) unit/.test(reason) ? `${reason} (units: ${VALIDITY_UNITS})` : reason;
}

/**
 * A certificate validity (`--validity`, `--cert-min-validity`, install's `--identity-*-validity`),
 * in milliseconds (negative if Go's part is): a Go duration that may start with whole days (`30d`, `1d12h`, `8760h`). Every
 * validity flag reads through here, so they all take the same units; other duration flags are
 * the real CLI's and take Go's units only.
 */
export function validityMs(flag: string, value: string): number {
  const [, days, rest = ''] = /^(\d+)d(.*)$/.exec(value) ?? [];
  const d = goDuration(days === undefined ? value : rest === '' ? '0' : rest);
  if (!d.ok) throw invalidArgument(value, flag, validityReason(d.reason));
  return Number(days ?? 0) * 86_400_000 + Number(d.value / 1_000_000n);
}

/** A certificate validity that must be positive (see validityMs). */
export function positiveDurationMs(flag: string, value: string): number {
  const ms = validityMs(flag, value);
  if (ms <= 0) throw new UserError(`--${flag} must be a positive duration (got ${value})`);
  return ms;
}

/** Go's fmtFrac: the fraction of v/10^prec without trailing zeros (and no '.' when it is zero). */
function fraction(v: bigint, prec: number): [string, bigint] {
  const div = 10n ** BigInt(prec);
  const digits = (v % div).toString().padStart(prec, '0').replace(/0+$/, '');
  return [digits === '' ? '' : `.${digits}`, v / div];
}

/** time.Duration.String(): `24h0m0s`, `20s`, `1m30s`, `1.5s`, `100ms`, `0s`. */
export function formatGoDuration(ns: bigint): string {
  const sign = ns < 0n ? '-' : '';
  let u = ns < 0n ? -ns : ns;
  if (u === 0n) return '0s';
  if (u < 1_000_000_000n) {
    const [prec, unit] = u < 1_000n ? [0, 'ns'] : u < 1_000_000n ? [3, 'µs'] : [6, 'ms'];
    const [frac, whole] = fraction(u, prec);
    return `${sign}${whole}${frac}${unit}`;
  }
  const [frac, secs] = fraction(u, 9);
  u = secs;
  let out = `${u % 60n}${frac}s`;
  u /= 60n;
  if (u > 0n) {
    out = `${u % 60n}m${out}`;
    u /= 60n;
    if (u > 0n) out = `${u}h${out}`;
  }
  return sign + out;
}

/** Normalises a duration string to Go's canonical form (`24h` → `24h0m0s`); throws Go's reason. */
export function normalizeGoDuration(s: string): string {
  return formatGoDuration(parseGoDuration(s));
}
