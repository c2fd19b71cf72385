import { UserError } from '../errors.js';
import { parsed, refused, type Parsed } from './parsed.js';

/*
 * Kubernetes resource quantities (`100m`, `1.5`, `250Mi`, `1e3`), as apimachinery's ParseQuantity
 * accepts them. Error texts are apimachinery's, because linkerd surfaces them verbatim.
 */

export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

const SHAPE = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const NUMBER = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)$/;
const EXPONENT = /^[eE][+-]?[0-9]+$/;

/** Decimal SI suffixes as powers of ten (note: `k`, not `K`). */
const DECIMAL_EXPONENT: Readonly<Record<string, number>> = {
  '': 0,
  n: -9,
  u: -6,
  m: -3,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const BINARY_MULTIPLIER: Readonly<Record<string, number>> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

function scaleByPowerOfTen(n: number, exp: number): number {
  // Dividing by 10^k (rather than multiplying by 10^-k) keeps `100m` exactly 0.1.
  return exp >= 0 ? n * 10 ** exp : n / 10 ** -exp;
}

/** resource.ParseQuantity: the quantity in base units (cores for CPU, bytes for memory), or apimachinery's reason. */
export function quantity(q: string): Parsed<number> {
  const [, number, suffix] = SHAPE.exec(q) ?? [];
  if (number === undefined || suffix === undefined || !NUMBER.test(number)) return refused(QUANTITY_FORMAT_ERROR);
  const num = Number(number);
  const binary = BINARY_MULTIPLIER[suffix];
  if (binary !== undefined) return parsed(num * binary);
  const exp = DECIMAL_EXPONENT[suffix];
  if (exp !== undefined) return parsed(scaleByPowerOfTen(num, exp));
  if (EXPONENT.test(suffix)) return parsed(scaleByPowerOfTen(num, Number(suffix.slice(1))));
  return refused(QUANTITY_SUFFIX_ERROR);
}

/** The quantity in base units; throws UserError with apimachinery's message when `q` is not a quantity. */
export function parseQuantity(q: string): number {
  const r = quantity(q);
  if (!r.ok) throw new UserError(r.reason);
  return r.value;
}

/** True when `q` parses as a quantity. */
export function isQuantity(q: string): boolean {
  return quantity(q).ok;
}

/** Milli-units rounded up, like apimachinery's Quantity.MilliValue (CPU comparisons use it). */
export function milliValue(q: string): number {
  return Math.ceil(Math.round(parseQuantity(q) * 1e3 * 1e6) / 1e6);
}

/** Whole units rounded up, like Quantity.Value (memory comparisons use it). */
export function wholeValue(q: string): number {
  return Math.ceil(Math.round(parseQuantity(q) * 1e6) / 1e6);
}

/** Whole CPU cores, rounded up (`1500m` → 2): how linkerd sizes proxy worker threads from CPU flags. */
export function wholeCPUCores(q: string): number {
  return Math.ceil(milliValue(q) / 1000);
}

const SI_SUFFIX: Readonly<Record<number, string>> = { [-9]: 'n', [-6]: 'u', [-3]: 'm', 0: '', 3: 'k', 6: 'M', 9: 'G', 12: 'T', 15: 'P', 18: 'E' };
const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'] as const;
/** Exponents beyond this are left as written (no resource is that large or small). */
const MAX_EXPONENT = 64;

/** `number × 10^exp` as nano-units, rounded up like apimachinery (its smallest unit is 1n). */
function nanoUnits(number: string, exp: number): bigint {
  const [whole = '', frac = ''] = number.replace(/^[+-]/, '').split('.');
  const digits = BigInt(`${whole}${frac}` || '0');
  const shift = exp + 9 - frac.length;
  if (shift >= 0) return digits * 10n ** BigInt(shift);
  const div = 10n ** BigInt(-shift);
  return (digits + div - 1n) / div;
}

/**
 * A quantity as Kubernetes writes it back (apimachinery's canonical form, what `linkerd inject`
 * prints through the typed pod spec): `0.5` → `500m`, `1000` → `1k`, `1024Mi` → `1Gi`, `1.5e3` →
 * `1500`. Binary quantities that are not a whole number of bytes ≥ 1Ki are written in decimal SI.
 * What does not parse is returned as it is (validation reports it elsewhere).
 */
export function canonicalQuantity(q: string): string {
  const [, number, suffix] = SHAPE.exec(q) ?? [];
  if (number === undefined || suffix === undefined || !NUMBER.test(number) || !isQuantity(q)) return q;
  const sign = number.startsWith('-') ? '-' : '';
  const binaryIndex = BINARY_SUFFIXES.indexOf(suffix as (typeof BINARY_SUFFIXES)[number]);
  const exponentForm = EXPONENT.test(suffix);
  const exp = exponentForm ? Number(suffix.slice(1)) : binaryIndex > 0 ? 0 : (DECIMAL_EXPONENT[suffix] ?? 0);
  if (Math.abs(exp) > MAX_EXPONENT) return q;
  let nano = nanoUnits(number, exp);
  if (binaryIndex > 0) nano *= 1024n ** BigInt(binaryIndex);
  if (nano === 0n) return '0';
  const billion = 10n ** 9n;
  if (binaryIndex > 0 && nano % billion === 0n && nano / billion >= 1024n) {
    let value = nano / billion;
    let i = 0;
    while (i < BINARY_SUFFIXES.length - 1 && value % 1024n === 0n) {
      value /= 1024n;
      i++;
    }
    return `${sign}${value}${BINARY_SUFFIXES[i] ?? ''}`;
  }
  // Decimal: the largest exponent (a multiple of 3) that leaves a whole mantissa.
  let e = -9;
  let mantissa = nano;
  while (e < 18 && mantissa % 1000n === 0n) {
    mantissa /= 1000n;
    e += 3;
  }
  if (exponentForm) return `${sign}${mantissa}${e === 0 ? '' : `e${e}`}`;
  return `${sign}${mantissa}${SI_SUFFIX[e] ?? ''}`;
}
