import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../../src/core/check/context.js';
import { realSleep, runChecks, type RunnerOptions } from '../../../src/core/check/runner.js';
import { fail, pass, skip, type CheckDefinition, type CheckOutcome } from '../../../src/core/check/types.js';
import { virtualTime } from '../../support/virtualTime.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A context stand-in: these checks never touch the cluster. */
const fakeContext = (generation: number) => ({ generation, client: () => Promise.reject(new Error('no cluster')) }) as unknown as CheckContext;

function def(id: string, run: (ctx: CheckContext) => Promise<CheckOutcome>, o: Partial<CheckDefinition> = {}): CheckDefinition {
  return { id, category: 'linkerd-existence', description: `check ${id}`, severity: 'error', hintAnchor: `anchor-${id}`, retryable: false, run, ...o };
}

const START = 1_700_000_000_000;

/** Runner options on virtual time starting at START: retries never depend on the machine's speed. */
const options = (o: Partial<RunnerOptions> = {}): RunnerOptions => ({
  ...(({ clock, sleep }) => ({ clock, sleep }))(virtualTime(START)),
  deadline: START,
  retryIntervalMs: 10,
  timeoutMs: 1_000,
  concurrency: Number.POSITIVE_INFINITY,
  hintBaseUrl: 'https://linkerd.io/2/checks/#',
  selected: () => true,
  ...o,
});

describe('the check runner', () => {
  it('reports results in declaration order even when later checks finish first', async () => {
    const finished: string[] = [];
    const slow = def('A', async () => {
      await sleep(40);
      finished.push('A');
      return pass();
    });
    const fast = def('B', async () => {
      finished.push('B');
      return pass();
    });
    const results = await runChecks([slow, fast], fakeContext, options());
    expect(finished).toEqual(['B', 'A']);
    expect(results.map((r) => r.id)).toEqual(['A', 'B']);
  });

  it('runs checks one at a time with concurrency 1', async () => {
    let active = 0;
    let peak = 0;
    const body = async () => {
      active++;
      peak = Math.max(peak, active);
      await sleep(5);
      active--;
      return pass();
    };
    await runChecks(
      ['A', 'B', 'C'].map((id) => def(id, body)),
      fakeContext,
      options({ concurrency: 1 }),
    );
    expect(peak).toBe(1);
  });

  it('stops at a fatal failure: later checks are neither reported nor started when sequential', async () => {
    const started: string[] = [];
    const mk = (id: string, outcome: CheckOutcome, severity: CheckDefinition['severity'] = 'error') =>
      def(
        id,
        async () => {
          started.push(id);
          return outcome;
        },
        { severity },
      );
    const results = await runChecks([mk('A', pass()), mk('B', fail('boom'), 'fatal'), mk('C', pass())], fakeContext, options({ concurrency: 1 }));
    expect(results.map((r) => `${r.id} ${r.status}`)).toEqual(['A success', 'B error']);
    expect(results[1].stoppedRun).toBe(true);
    expect(started).toEqual(['A', 'B']);
  });

  it('keeps going after non-fatal errors and warnings', async () => {
    const results = await runChecks(
      [def('A', async () => fail('bad')), def('B', async () => fail('meh'), { severity: 'warning' }), def('C', async () => pass())],
      fakeContext,
      options(),
    );
    expect(results.map((r) => `${r.id} ${r.status}`)).toEqual(['A error', 'B warning', 'C success']);
    expect(results[0]).toMatchObject({ error: 'bad', hint: 'https://linkerd.io/2/checks/#anchor-A' });
  });

  it('does not report skipped checks (the real SkipError) and reports deselected ones as skipped', async () => {
    const results = await runChecks(
      [def('A', async () => skip('no subject')), def('B', async () => pass()), def('C', async () => pass())],
      fakeContext,
      options({ selected: (c) => c.id !== 'C' }),
    );
    expect(results.map((r) => `${r.id} ${r.status}`)).toEqual(['B success', 'C skipped']);
  });

  it('retries a retryable check until it passes, on a fresh view of the cluster', async () => {
    const generations: number[] = [];
    let n = 0;
    const check = def(
      'A',
      async (ctx) => {
        generations.push(ctx.generation);
        return ++n < 3 ? fail('not yet') : pass();
      },
      { retryable: true },
    );
    const [r] = await runChecks([check], fakeContext, options({ deadline: START + 5_000 }));
    expect(r).toMatchObject({ status: 'success', retries: 2 });
    expect(generations[0]).toBe(0);
    expect(generations[1]).toBeGreaterThan(0);
    expect(generations[2]).toBeGreaterThan(generations[1]);
  });

  it('gives up at the deadline and reports the last failure', async () => {
    let attempts = 0;
    const check = def('A', async () => fail(`attempt ${++attempts}`), { retryable: true });
    const time = virtualTime(START);
    const [r] = await runChecks([check], fakeContext, options({ deadline: START + 100, retryIntervalMs: 20, clock: time.clock, sleep: time.sleep }));
    expect(r.status).toBe('error');
    expect(r.error).toBe(`attempt ${attempts}`);
    // Attempts at 0, 20, 40, 60, 80 and 100 ms; none after the deadline.
    expect(attempts).toBe(6);
    expect(time.elapsed()).toBe(100);
    expect(r.retries).toBe(5);
  });

  it('fails fast on a terminal state the check declares, without waiting for the deadline', async () => {
    let attempts = 0;
    const check = def(
      'A',
      async () => {
        attempts++;
        return fail('pod "web" status is CrashLoopBackOff', { terminal: 'crash-loop' });
      },
      { retryable: true, failFastOn: ['crash-loop'] },
    );
    const time = virtualTime(START);
    const [r] = await runChecks([check], fakeContext, options({ deadline: START + 60_000, clock: time.clock, sleep: time.sleep }));
    expect(attempts).toBe(1);
    expect(time.slept).toEqual([]);
    expect(r.error).toBe('pod "web" status is CrashLoopBackOff');
  });

  it('keeps retrying terminal states the check does not declare', async () => {
    let attempts = 0;
    const check = def('A', async () => (++attempts < 2 ? fail('x', { terminal: 'image-pull' }) : pass()), { retryable: true, failFastOn: ['crash-loop'] });
    const [r] = await runChecks([check], fakeContext, options({ deadline: START + 5_000 }));
    expect(r.status).toBe('success');
    expect(attempts).toBe(2);
  });

  it('times out one attempt after --timeout', async () => {
    const check = def('A', () => new Promise<CheckOutcome>(() => {}));
    const [r] = await runChecks([check], fakeContext, options({ timeoutMs: 50 }));
    expect(r).toMatchObject({ status: 'error', error: 'check timed out after 50ms' });
  });

  it('turns thrown errors into one-line failures', async () => {
    const [r] = await runChecks(
      [
        def('A', async () => {
          throw new Error('secrets "x" not found');
        }),
      ],
      fakeContext,
      options(),
    );
    expect(r.error).toBe('secrets "x" not found');
  });

  it('escalates a warning to an error when the outcome asks for it', async () => {
    const [r] = await runChecks([def('A', async () => fail('expires', { escalate: true }), { severity: 'warning' })], fakeContext, options());
    expect(r.status).toBe('error');
  });

  it('tells the observer which check it waits for, with the error of surfacing checks while they retry', async () => {
    const seen: string[] = [];
    let n = 0;
    const check = def('A', async () => (++n < 2 ? fail('pod/x container y is not ready') : pass()), { retryable: true, surfaceErrorOnRetry: true });
    const quiet = def('B', async () => (n < 3 && ++n < 3 ? fail('hidden') : pass()), { retryable: true });
    await runChecks([check, quiet], fakeContext, options({ deadline: START + 5_000 }), {
      waiting: (c, m) => seen.push(`${c.id}${m ? `: ${m}` : ''}`),
    });
    expect(seen).toContain('A: pod/x container y is not ready');
    expect(seen[0]).toBe('A');
  });

  it('wakes retrying checks when a fatal failure ends the run', async () => {
    const retrying = def('B', async () => fail('not yet'), { retryable: true });
    const fatal = def(
      'A',
      async () => {
        await sleep(20);
        return fail('gone');
      },
      { severity: 'fatal' },
    );
    // A pause that only ends when the run is stopped: the test finishes only if the fatal failure wakes it.
    let woken = 0;
    const sleepUntilStopped = (_ms: number, signal: AbortSignal) =>
      new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        signal.addEventListener('abort', () => {
          woken++;
          resolve();
        });
      });
    const results = await runChecks([fatal, retrying], fakeContext, options({ deadline: START + 60_000, retryIntervalMs: 10_000, sleep: sleepUntilStopped }));
    expect(results.map((r) => r.id)).toEqual(['A']);
    expect(woken).toBe(1);
  });

  it('ends a real pause at once when the run is stopped', async () => {
    const stop = new AbortController();
    const pause = realSleep(60_000, stop.signal);
    stop.abort();
    await expect(pause).rejects.toThrow(/abort/i);
  });
});
