import { describe, expect, it } from 'vitest';
import { goBool } from '../../../src/core/parse/strconv.js';

/* strconv.ParseBool: twelve spellings, nothing else. */

describe('goBool (strconv.ParseBool)', () => {
  it.each([
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
  ])('%s is %s', (word, value) => {
    expect(goBool(word)).toEqual({ ok: true, value });
  });

  it.each([
    ['', 'strconv.ParseBool: parsing "": invalid syntax'],
    ['yes', 'strconv.ParseBool: parsing "yes": invalid syntax'],
    ['tRUE', 'strconv.ParseBool: parsing "tRUE": invalid syntax'],
    [' true', 'strconv.ParseBool: parsing " true": invalid syntax'],
    ['2', 'strconv.ParseBool: parsing "2": invalid syntax'],
    ['constructor', 'strconv.ParseBool: parsing "constructor": invalid syntax'],
    // strconv.Quote keeps printable non-ASCII and escapes controls.
    ['né\n', 'strconv.ParseBool: parsing "né\\n": invalid syntax'],
  ])('%j is refused: %s', (word, reason) => {
    expect(goBool(word)).toEqual({ ok: false, reason });
  });
});
