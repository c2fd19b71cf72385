import { UserError } from '../errors.js';
import { goBool, strconvQuote } from '../parse/strconv.js';
import { invalidArgument, type FlagName } from '../parse/invalidArgument.js';
import { normalizeGoDuration } from './duration.js';

/*
 * How a value flag's argument becomes a value, with pflag's words for a bad one. commander hands
 * flags over as strings; tests and callers may pass typed values. Any chart's flags use these;
 * Go's words (ParseBool, strconv.Quote, pflag's sentence) come from core/parse.
 */

export type FlagKind = 'string' | 'bool' | 'int' | 'duration' | 'stringSlice';
export type FlagValue = string | boolean | number | readonly string[];

/** What a coercion needs to know of its flag: its name (and shorthand) for the message, and Go's uint-ness. */
interface NamedFlag extends FlagName {
  /** Rejects negative numbers (Go uint flags). */
  readonly unsigned?: boolean;
}

export function asString(v: FlagValue): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return v.join(',');
}

export function asBool(flag: NamedFlag, v: FlagValue): boolean {
  if (typeof v === 'boolean') return v;
  const b = goBool(asString(v));
  if (!b.ok) throw invalidArgument(asString(v), flag, b.reason);
  return b.value;
}

export function asInt(flag: NamedFlag, v: FlagValue): number {
  const fn = flag.unsigned ? 'strconv.ParseUint' : 'strconv.ParseInt';
  const text = asString(v);
  const ok = flag.unsigned ? /^[0-9]+$/ : /^[+-]?[0-9]+$/;
  if (!ok.test(text)) throw invalidArgument(text, flag, `${fn}: parsing ${strconvQuote(text)}: invalid syntax`);
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw invalidArgument(text, flag, `${fn}: parsing ${strconvQuote(text)}: value out of range`);
  return n === 0 ? 0 : n;
}

export function asDuration(flag: NamedFlag, v: FlagValue): string {
  const text = asString(v);
  try {
    return normalizeGoDuration(text);
  } catch (e) {
    if (e instanceof UserError) throw invalidArgument(text, flag, e.message);
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
