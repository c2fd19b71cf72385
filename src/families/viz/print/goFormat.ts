import { parseGoDuration } from '../../../core/values/duration.js';

/*
 * The number formats of the real viz tables: Go's `%.Nf` (exact rounding, ties to even, where
 * JavaScript's toFixed rounds ties up) and rates over a Go duration string.
 */

export function goFixed(x: number, digits: number): string {
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : x < 0 ? '-Inf' : 'NaN';
  const scale = 10 ** digits;
  const scaled = x * scale;
  // A tie only when the scaled value is exactly k + 0.5 and scaling lost nothing.
  if (scaled / scale === x && scaled * 2 === Math.round(scaled * 2) && !Number.isInteger(scaled)) {
    const low = Math.floor(scaled);
    const even = low % 2 === 0 ? low : low + 1;
    return (even / scale).toFixed(digits);
  }
  return x.toFixed(digits);
}

/** Seconds of a Go duration string (`1m` → 60), or undefined when it does not parse. */
export function windowSeconds(window: string): number | undefined {
  try {
    return Number(parseGoDuration(window)) / 1e9;
  } catch {
    return undefined;
  }
}

/** linkerd's getRequestRate: requests a second over the row's window (0 when the window does not parse). */
export function requestRate(success: bigint, failure: bigint, window: string): number {
  const seconds = windowSeconds(window);
  return seconds ? Number(success + failure) / seconds : 0;
}

/** linkerd's getSuccessRate: a fraction, 0 without requests. */
export function successRate(success: bigint, failure: bigint): number {
  const total = success + failure;
  return total === 0n ? 0 : Number(success) / Number(total);
}
