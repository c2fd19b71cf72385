/*
 * Go-compatible parsing, one place for every family: durations (time.ParseDuration), booleans
 * (strconv.ParseBool) and resource quantities (resource.ParseQuantity). Each parser returns the
 * value or the reason text Go prints; the CLI kit puts a flag's reason into pflag's
 * `invalid argument "V" for "--flag" flag: <reason>`.
 */
export type { Parsed } from './parsed.js';
export { goBool } from './goBool.js';
export { goDuration, parseGoDuration, positiveDurationMs, formatGoDuration, normalizeGoDuration } from './goDuration.js';
export { strconvQuote, timeQuote } from './goQuote.js';
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
