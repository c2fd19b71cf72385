import { describe, expect, it } from 'vitest';
import { timeQuote } from '../../../src/core/parse/goDuration.js';
import { goFixed, strconvQuote } from '../../../src/core/parse/strconv.js';

/* Go's quotings, as they appear in its parsers' reasons and in pflag's `invalid argument "V"`. */

describe('strconvQuote (strconv.Quote)', () => {
  it.each([
    ['plain', '"plain"'],
    ['', '""'],
    ['a "b" \\c', '"a \\"b\\" \\\\c"'],
    ['\x07\b\f\n\r\t\v', '"\\a\\b\\f\\n\\r\\t\\v"'],
    ['\x00\x1b\x7f', '"\\x00\\x1b\\x7f"'],
    ['né µ 😀', '"né µ 😀"'],
    ['\u00a0', '"\\u00a0"'], // a space, but not the ASCII one
    ['\u200b', '"\\u200b"'], // a format character
    ['\u{e0001}', '"\\U000e0001"'],
  ])('%j is %s', (s, quoted) => {
    expect(strconvQuote(s)).toBe(quoted);
  });
});

describe('timeQuote (the time package)', () => {
  it('writes every byte of a non-ASCII or control character as \\xNN and leaves DEL and printable ASCII alone', () => {
    expect(timeQuote('a\\b"\x7f\t😀')).toBe('"a\\\\b\\"\x7f\\x09\\xf0\\x9f\\x98\\x80"');
  });
});

describe('goFixed (fmt %.Nf)', () => {
  it('rounds exact ties to even, as Go; other values as toFixed', () => {
    expect([0.5, 1.5, 2.5, 95.5].map((x) => goFixed(x, 0))).toEqual(['0', '2', '2', '96']);
    expect([0.125, 0.375, 0.3, 2 / 3].map((x) => goFixed(x, 2))).toEqual(['0.12', '0.38', '0.30', '0.67']);
    expect([NaN, Infinity, -Infinity].map((x) => goFixed(x, 2))).toEqual(['NaN', '+Inf', '-Inf']);
  });
});
