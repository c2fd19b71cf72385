import { describe, expect, it } from 'vitest';
import { editDistance, suggestionsFor } from '../../../src/cli/help/unknownCommand.js';

describe("cobra's command suggestions", () => {
  it('measures Levenshtein distance, ignoring case', () => {
    expect(editDistance('instal', 'install')).toBe(1);
    expect(editDistance('versoin', 'version')).toBe(2);
    expect(editDistance('CHECK', 'check')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('suggests within distance 2, or by prefix, in the given order', () => {
    const names = ['check', 'completion', 'help', 'inject', 'install', 'uninject', 'version'];
    expect(suggestionsFor('injet', names)).toEqual(['inject']);
    expect(suggestionsFor('co', names)).toEqual(['completion']);
    expect(suggestionsFor('chekc', names)).toEqual(['check']);
    expect(suggestionsFor('frobnicate', names)).toEqual([]);
  });
});
