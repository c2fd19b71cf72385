import { strconvQuote } from './goQuote.js';
import { parsed, refused, type Parsed } from './parsed.js';

/** strconv.ParseBool's spellings: nothing else is a boolean to Go (not `yes`, not `on`, not ` true`). */
const BOOL_WORDS: ReadonlyMap<string, boolean> = new Map([
  ['1', true],
  ['t', true],
  ['T', true],
  ['TRUE', true],
  ['true', true],
  ['True', true],
  ['0', false],
  ['f', false],
  ['F', false],
  ['FALSE', false],
  ['false', false],
  ['False', false],
]);

/** strconv.ParseBool: the boolean, or `strconv.ParseBool: parsing "x": invalid syntax`. */
export function goBool(s: string): Parsed<boolean> {
  const b = BOOL_WORDS.get(s);
  return b === undefined ? refused(`strconv.ParseBool: parsing ${strconvQuote(s)}: invalid syntax`) : parsed(b);
}
