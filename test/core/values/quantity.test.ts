import { describe, expect, it } from 'vitest';
import { canonicalQuantity } from '../../../src/core/values/quantity.js';

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
