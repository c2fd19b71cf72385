import { UserError } from '../errors.js';

/*
 * Go's time.Duration syntax (`24h`, `1h30m`, `1.5s`, `300ms`) and its String() form (`24h0m0s`).
 * linkerd stores durations given by flags in the String() form, so `--identity-issuance-lifetime 24h`
 * and the chart default `24h0m0s` compare equal. Nanoseconds are BigInt: a year overflows 2^53 ns.
 */

const UNIT_NS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const MAX_DURATION = 2n ** 63n - 1n;

function invalid(s: string): UserError {
  return new UserError(`time: invalid duration ${JSON.stringify(s)}`);
}

/** Parses a Go duration string into nanoseconds; errors use Go's texts. */
export function parseGoDuration(s: string): bigint {
  let rest = s;
  let negative = false;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    negative = rest[0] === '-';
    rest = rest.slice(1);
  }
  if (rest === '0') return 0n;
  if (rest === '') throw invalid(s);
  let total = 0n;
  while (rest !== '') {
    const m = /^([0-9]*)(?:\.([0-9]*))?/.exec(rest);
    const whole = m?.[1] ?? '';
    const frac = m?.[2] ?? '';
    if (whole === '' && frac === '') throw invalid(s);
    rest = rest.slice(m?.[0].length ?? 0);
    const unitMatch = /^[^0-9.]+/.exec(rest);
    if (unitMatch === null) throw new UserError(`time: missing unit in duration ${JSON.stringify(s)}`);
    const unit = unitMatch[0];
    const scale = UNIT_NS[unit];
    if (scale === undefined) {
      throw new UserError(`time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(s)}`);
    }
    rest = rest.slice(unit.length);
    let ns = BigInt(whole === '' ? '0' : whole) * scale;
    if (frac !== '') ns += (BigInt(frac) * scale) / 10n ** BigInt(frac.length);
    total += ns;
    if (total > MAX_DURATION) throw invalid(s);
  }
  return negative ? -total : total;
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

/** Normalises a duration string to Go's canonical form (`24h` → `24h0m0s`). */
export function normalizeGoDuration(s: string): string {
  return formatGoDuration(parseGoDuration(s));
}
