import { describe, expect, it } from 'vitest';
import { QUANTITY_FORMAT_ERROR, QUANTITY_SUFFIX_ERROR, canonicalQuantity, quantity } from '../../../src/core/parse/quantity.js';

/* apimachinery's canonical quantity form, as `kubectl get -o yaml` and linkerd's inject print it. */

describe('canonicalQuantity', () => {
  it.each([
    ['0.5', '500m'],
    ['1.5', '1500m'],
    ['1000m', '1'],
    ['100m', '100m'],
    ['1000', '1k'],
    ['1500000', '1500k'],
    ['2000000', '2M'],
    ['0.0000000001', '1n'],
    ['1024Mi', '1Gi'],
    ['1536Mi', '1536Mi'],
    ['0.5Gi', '512Mi'],
    ['100Ki', '100Ki'],
    ['512', '512'],
    ['0.5Ki', '512'],
    ['0.3Ki', '307200m'],
    ['1e3', '1e3'],
    ['1.5e3', '1500'],
    ['0', '0'],
    ['0Mi', '0'],
    ['-0.5', '-500m'],
    ['lots', 'lots'],
  ])('%s → %s', (q, want) => {
    expect(canonicalQuantity(q)).toBe(want);
  });
});

describe('quantity (resource.ParseQuantity)', () => {
  it.each([
    ['100m', 0.1],
    ['1.5', 1.5],
    ['250Mi', 250 * 2 ** 20],
    ['1e3', 1000],
    ['2k', 2000],
    ['-1', -1],
  ])('%s is %s', (q, value) => {
    expect(quantity(q)).toEqual({ ok: true, value });
  });

  it.each([
    ['', QUANTITY_FORMAT_ERROR],
    ['x', QUANTITY_FORMAT_ERROR],
    ['1Kb', QUANTITY_FORMAT_ERROR],
    ['1.2.3', QUANTITY_FORMAT_ERROR],
    ['1K', QUANTITY_SUFFIX_ERROR],
    ['1mi', QUANTITY_SUFFIX_ERROR],
  ])('%j is refused: %s', (q, reason) => {
    expect(quantity(q)).toEqual({ ok: false, reason });
  });
});
