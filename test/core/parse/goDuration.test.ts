import { describe, expect, it } from 'vitest';
import { formatGoDuration, goDuration, positiveDurationMs } from '../../../src/core/parse/goDuration.js';

/* time.ParseDuration's documented behaviour and its error texts, case by case. */

const H = 3_600_000_000_000n;
const M = 60_000_000_000n;
const S = 1_000_000_000n;

describe('goDuration (time.ParseDuration)', () => {
  it.each([
    ['1h2m3.5s', H + 2n * M + 3n * S + 500_000_000n],
    ['-1.5h', -(H + 30n * M)],
    ['+2m', 2n * M],
    ['.5s', 500_000_000n],
    ['1.s', S],
    ['1µs', 1_000n], // U+00B5
    ['1μs', 1_000n], // U+03BC
    ['1us', 1_000n],
    ['300ms', 300_000_000n],
    ['10ns', 10n],
    ['0', 0n],
    ['-0', 0n],
    ['+0', 0n],
    ['0s', 0n],
    ['1h1h', 2n * H],
    ['8760h', 8760n * H],
    ['1.0000000001h', H + 360n],
    // Go computes fractions in float64: these are its own test cases.
    ['0.3333333333333333333h', 20n * M],
    ['0.830103483285477580700h', 49n * M + 48n * S + 372_539_827n],
    ['9223372036854775807ns', (1n << 63n) - 1n],
    ['2562047h47m16.854775807s', (1n << 63n) - 1n],
    ['-9223372036854775808ns', -(1n << 63n)],
    ['-2562047h47m16.854775808s', -(1n << 63n)],
  ])('%s is %s ns', (input, ns) => {
    expect(goDuration(input)).toEqual({ ok: true, value: ns });
  });

  it.each([
    ['', 'time: invalid duration ""'],
    ['-', 'time: invalid duration "-"'],
    ['1', 'time: missing unit in duration "1"'],
    ['1m1', 'time: missing unit in duration "1m1"'],
    ['1.2.3s', 'time: missing unit in duration "1.2.3s"'],
    ['1x', 'time: unknown unit "x" in duration "1x"'],
    ['1s ', 'time: unknown unit "s " in duration "1s "'],
    ['1d', 'time: unknown unit "d" in duration "1d"'],
    ['.s', 'time: invalid duration ".s"'],
    ['s', 'time: invalid duration "s"'],
    [' 1s', 'time: invalid duration " 1s"'],
    ['x', 'time: invalid duration "x"'],
    ['--1s', 'time: invalid duration "--1s"'],
    ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
    ['2562047h47m16.854775808s', 'time: invalid duration "2562047h47m16.854775808s"'],
    ['3000000h', 'time: invalid duration "3000000h"'],
    ['99999999999999999999h', 'time: invalid duration "99999999999999999999h"'],
    // The time package's quoting: `"` and `\` escaped, control and non-ASCII bytes as \xNN.
    ['1é', 'time: unknown unit "\\xc3\\xa9" in duration "1\\xc3\\xa9"'],
    ['1"s', 'time: unknown unit "\\"s" in duration "1\\"s"'],
    ['1\ns', 'time: unknown unit "\\x0as" in duration "1\\x0as"'],
  ])('%j is refused: %s', (input, reason) => {
    expect(goDuration(input)).toEqual({ ok: false, reason });
  });
});

describe('formatGoDuration (time.Duration.String)', () => {
  it.each([
    [0n, '0s'],
    [1n, '1ns'],
    [1_500n, '1.5µs'],
    [1_500_000n, '1.5ms'],
    [S + 500_000_000n, '1.5s'],
    [90n * S, '1m30s'],
    [24n * H, '24h0m0s'],
    [-(H + 30n * M), '-1h30m0s'],
    [-(1n << 63n), '-2562047h47m16.854775808s'],
  ])('%s ns is %s', (ns, text) => {
    expect(formatGoDuration(ns)).toBe(text);
  });

  it('gives back what goDuration reads', () => {
    for (const text of ['1h2m3.5s', '-1h30m0s', '1.5µs', '2562047h47m16.854775807s']) {
      const d = goDuration(text);
      expect(d.ok && goDuration(formatGoDuration(d.value))).toEqual(d);
    }
  });
});

describe('positiveDurationMs', () => {
  it('reads a positive duration in milliseconds', () => {
    expect(positiveDurationMs('validity', '1h0.5s')).toBe(3_600_500);
  });

  it('takes whole days before the Go part, as every validity flag does', () => {
    expect([positiveDurationMs('validity', '10d'), positiveDurationMs('validity', '1d12h')]).toEqual([864_000_000, 129_600_000]);
  });

  it("refuses a value Go cannot parse in pflag's words", () => {
    expect(() => positiveDurationMs('validity', '1y')).toThrow(
      'invalid argument "1y" for "--validity" flag: time: unknown unit "y" in duration "1y" (units: d (24h), h, m, s, ms, us (or µs), ns)',
    );
  });

  it.each(['0s', '0', '-1h'])('refuses %s as not positive', (value) => {
    expect(() => positiveDurationMs('identity-issuer-validity', value)).toThrow(`--identity-issuer-validity must be a positive duration (got ${value})`);
  });
});
