import type { Sleep } from '../../src/core/check/runner.js';

/**
 * Virtual time for code that takes a `clock` and a `sleep`: a pause moves the clock forward
 * by exactly its length (to `now + ms` as seen when it began) and returns on the next turn of
 * the event loop, so retry counts and deadlines never depend on how fast the machine is.
 */
export function virtualTime(start = 1_700_000_000_000) {
  let now = start;
  const slept: number[] = [];
  const clock = () => now;
  const sleep: Sleep = (ms, signal) => {
    const until = now + Math.max(0, ms);
    slept.push(ms);
    return new Promise<void>((resolve) => {
      setImmediate(() => {
        if (!signal.aborted) now = Math.max(now, until);
        resolve();
      });
    });
  };
  return { clock, sleep, slept, elapsed: () => now - start };
}
