/*
 * Go-compatible parsing, one place for every family: durations (time.ParseDuration), booleans
 * (strconv.ParseBool) and resource quantities (resource.ParseQuantity). Each parser returns the
 * value or the reason text Go prints; invalidArgument puts a flag's reason into pflag's
 * `invalid argument "V" for "--flag" flag: <reason>`. The start-up path (the kit's booleans)
 * imports strconv.ts and invalidArgument.ts directly, not this index.
 */
export type { Parsed } from './parsed.js';
export { goDuration, parseGoDuration, positiveDurationMs, formatGoDuration, normalizeGoDuration, timeQuote } from './goDuration.js';
export { goBool, strconvQuote } from './strconv.js';
export { invalidArgument, pflagName, type FlagName } from './invalidArgument.js';
export {
  quantity,
  parseQuantity,
  isQuantity,
  milliValue,
  wholeValue,
  wholeCPUCores,
  canonicalQuantity,
  QUANTITY_FORMAT_ERROR,
  QUANTITY_SUFFIX_ERROR,
} from './quantity.js';
