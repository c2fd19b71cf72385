import { UserError } from '../errors.js';
import { normalizeGoDuration } from './duration.js';

/*
 * How a value flag's argument becomes a value, with pflag's words for a bad one. commander hands
 * flags over as strings; tests and callers may pass typed values. Any chart's flags use these.
 */

export type FlagKind = 'string' | 'bool' | 'int' | 'duration' | 'stringSlice';
export type FlagValue = string | boolean | number | readonly string[];

/** What a coercion needs to know of its flag: the name for the message, and Go's uint-ness. */
interface NamedFlag {
  readonly name: string;
  /** Rejects negative numbers (Go uint flags). */
  readonly unsigned?: boolean;
}

/** pflag's `invalid argument "<value>" for "--<flag>" flag: <reason>`. */
export function invalidArgument(flag: NamedFlag, value: unknown, reason: string): UserError {
  return new UserError(`invalid argument ${JSON.stringify(String(value))} for "--${flag.name}" flag: ${reason}`);
}

export function asString(v: FlagValue): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return v.join(',');
}

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

export function asBool(flag: NamedFlag, v: FlagValue): boolean {
  if (typeof v === 'boolean') return v;
  const b = parseGoBool(asString(v));
  if (b === undefined) throw invalidArgument(flag, v, `strconv.ParseBool: parsing ${JSON.stringify(String(v))}: invalid syntax`);
  return b;
}

export function asInt(flag: NamedFlag, v: FlagValue): number {
  const fn = flag.unsigned ? 'strconv.ParseUint' : 'strconv.ParseInt';
  const text = asString(v);
  const ok = flag.unsigned ? /^[0-9]+$/ : /^[+-]?[0-9]+$/;
  if (!ok.test(text)) throw invalidArgument(flag, v, `${fn}: parsing ${JSON.stringify(text)}: invalid syntax`);
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw invalidArgument(flag, v, `${fn}: parsing ${JSON.stringify(text)}: value out of range`);
  return n === 0 ? 0 : n;
}

export function asDuration(flag: NamedFlag, v: FlagValue): string {
  const text = asString(v);
  try {
    return normalizeGoDuration(text);
  } catch (e) {
    if (e instanceof UserError) throw invalidArgument(flag, text, e.message);
    throw e;
  }
}

/** pflag string slices: comma-separated, repeated flags append; `""` is the empty list. */
export function splitSliceArg(value: string): string[] {
  return value === '' ? [] : value.split(',');
}

export function asSlice(v: FlagValue): string[] {
  if (Array.isArray(v)) return [...(v as readonly string[])];
  return splitSliceArg(asString(v));
}
