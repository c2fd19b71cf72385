import { UserError } from '../errors.js';

/*
 * Kubernetes resource quantities (`100m`, `1.5`, `250Mi`, `1e3`), as apimachinery's ParseQuantity
 * accepts them. Error texts are apimachinery's, because linkerd surfaces them verbatim.
 */

export const QUANTITY_FORMAT_ERROR =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

const SHAPE = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const NUMBER = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)$/;
const EXPONENT = /^[eE][+-]?[0-9]+$/;

/** Decimal SI suffixes as powers of ten (note: `k`, not `K`). */
const DECIMAL_EXPONENT: Readonly<Record<string, number>> = {
  '': 0, n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18,
};
const BINARY_MULTIPLIER: Readonly<Record<string, number>> = {
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

function scaleByPowerOfTen(n: number, exp: number): number {
  // Dividing by 10^k (rather than multiplying by 10^-k) keeps `100m` exactly 0.1.
  return exp >= 0 ? n * 10 ** exp : n / 10 ** -exp;
}

/**
 * The quantity in base units (cores for CPU, bytes for memory). Throws UserError with
 * apimachinery's message when `q` is not a quantity.
 */
export function parseQuantity(q: string): number {
  const [, number, suffix] = SHAPE.exec(q) ?? [];
  if (number === undefined || suffix === undefined || !NUMBER.test(number)) throw new UserError(QUANTITY_FORMAT_ERROR);
  const num = Number(number);
  const binary = BINARY_MULTIPLIER[suffix];
  if (binary !== undefined) return num * binary;
  const exp = DECIMAL_EXPONENT[suffix];
  if (exp !== undefined) return scaleByPowerOfTen(num, exp);
  if (EXPONENT.test(suffix)) return scaleByPowerOfTen(num, Number(suffix.slice(1)));
  throw new UserError(QUANTITY_SUFFIX_ERROR);
}

/** True when `q` parses as a quantity. */
export function isQuantity(q: string): boolean {
  try {
    parseQuantity(q);
    return true;
  } catch {
    return false;
  }
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
