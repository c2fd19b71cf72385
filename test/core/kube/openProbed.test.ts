import { describe, expect, it } from 'vitest';
import { openProbed } from '../../../src/core/kube/openProbed.js';

/** Something to open that counts how often it is closed. */
function resource() {
  const r = {
    closed: 0,
    close: () => {
      r.closed++;
    },
  };
  return r;
}

describe('openProbed', () => {
  it('returns what was opened, still open, when the probe passes', async () => {
    const r = resource();
    const probed: unknown[] = [];
    expect(
      await openProbed(
        async () => r,
        async (x) => probed.push(x),
      ),
    ).toBe(r);
    expect([probed, r.closed]).toEqual([[r], 0]);
  });

  it('closes it once and rethrows the probe’s error when the probe fails', async () => {
    const r = resource();
    const failure = new Error('connection refused');
    await expect(
      openProbed(
        async () => r,
        () => Promise.reject(failure),
      ),
    ).rejects.toBe(failure);
    expect(r.closed).toBe(1);
  });

  it('does not probe when opening fails, and passes that error on', async () => {
    let probes = 0;
    const failure = new Error('no kubeconfig');
    await expect(
      openProbed(
        () => Promise.reject(failure),
        async () => probes++,
      ),
    ).rejects.toBe(failure);
    expect(probes).toBe(0);
  });
});
