import { UserError } from '../errors.js';
import { strconvQuote } from './strconv.js';

/*
 * pflag's one sentence for a flag value it refuses, `invalid argument "V" for "--flag" flag:
 * reason`, naming the flag `-s, --name` when it has a shorthand. Every flag of every family (the
 * kit's booleans, chart value flags, inject's settings, check's durations) refuses through it.
 */

/** A flag as pflag names it in errors. */
export interface FlagName {
  readonly name: string;
  readonly short?: string;
}

/** `-s, --name` or `--name`, pflag's flagName in FlagSet.Set. */
export function pflagName(flag: FlagName | string): string {
  const f = typeof flag === 'string' ? { name: flag } : flag;
  return f.short ? `-${f.short}, --${f.name}` : `--${f.name}`;
}

/** The units time.ParseDuration knows (a duration flag's unknown unit lists them). */
const GO_UNITS = 'ns, us (or µs), ms, s, m, h';

/**
 * The one error for a flag value that does not parse or is out of range. A duration with a unit
 * Go lacks (`10d`) also says which units exist, unless the caller listed them already.
 */
export function invalidArgument(value: string, flag: FlagName | string, reason: string): UserError {
  const said = /^time: (unknown|missing) unit/.test(reason) && !reason.includes('(units: ') ? `${reason} (units: ${GO_UNITS})` : reason;
  return new UserError(`invalid argument ${strconvQuote(value)} for "${pflagName(flag)}" flag: ${said}`);
}
