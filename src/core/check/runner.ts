import { setTimeout as delay } from 'node:timers/promises';
import { isUserError } from '../errors.js';
import { isKubeError } from '../kube/kubeError.js';
import { formatGoDuration } from '../parse/goDuration.js';
import type { CheckContext } from './context.js';
import { fail, type CheckDefinition, type CheckOutcome, type CheckResult } from './types.js';

export interface RunnerOptions {
  /** Retries stop at this instant (epoch ms): `--wait` from the start of the run. */
  deadline: number;
  /** Pause between attempts of a retryable check (the real CLI's 5 s). */
  retryIntervalMs: number;
  /** Deadline of one attempt (`--timeout`). */
  timeoutMs: number;
  /** How many checks may be in flight at once; 1 runs them one after another, like the real CLI. */
  concurrency: number;
  hintBaseUrl: string;
  /** Checks left out by `--skip`/`--only` are reported as `skipped`, never run. */
  selected: (check: CheckDefinition) => boolean;
  /** Time source and pause between attempts; tests inject virtual ones so retries never depend on machine speed. */
  clock?: () => number;
  sleep?: Sleep;
  /** Set on every result: the checks are an extension's, run in-process (`linkerd-<name>`). */
  extension?: string;
}

/** A pause of `ms`, ended early (resolved or rejected) when `signal` aborts. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** Real time: a `setTimeout` pause, its timer cleared on abort. */
export const realSleep: Sleep = (ms, signal) => delay(Math.max(0, ms), undefined, { signal });

export interface RunnerObserver {
  /** The check whose result is awaited next, and what it is waiting for (`message` while retrying). */
  waiting?(check: CheckDefinition, message?: string): void;
  result?(result: CheckResult): void;
}

const ATTEMPT_GRACE_MS = 250;

interface Executed {
  outcome: CheckOutcome;
  attempts: number;
  durationMs: number;
}

/** How a failure reads in a result: KubeErrors and UserErrors carry one-line messages already. */
export function outcomeOf(e: unknown, contextName?: string): CheckOutcome {
  if (isKubeError(e, 'unauthorized')) {
    const who = contextName ? ` of kubeconfig context "${contextName}"` : '';
    return fail(`${e.message}: the API server rejected the credentials${who}`);
  }
  if (isKubeError(e) || isUserError(e)) return fail(e.message);
  if (e instanceof Error) return fail(e.message || String(e));
  return fail(String(e));
}

class Limiter {
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(private readonly max: number) {}

  async run<T>(fn: () => Promise<T>, cancelled: () => boolean): Promise<T | undefined> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.queue.push(resolve));
    if (cancelled()) {
      this.release();
      return undefined;
    }
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.release();
    }
  }

  private release(): void {
    if (this.active < this.max) this.queue.shift()?.();
  }
}

/**
 * Runs checks as the real CLI reports them — in order, a fatal failure ending the run —
 * but starts independent checks concurrently (they share one snapshot of the cluster) and
 * retries each retryable one on its own until the deadline. Results are delivered in order.
 */
export async function runChecks(
  checks: CheckDefinition[],
  contextFor: (generation: number) => CheckContext,
  o: RunnerOptions,
  observer: RunnerObserver = {},
): Promise<CheckResult[]> {
  const clock = o.clock ?? Date.now;
  const start = clock();
  let stopped = false;
  const limiter = new Limiter(Math.max(1, o.concurrency));
  const current = { check: undefined as CheckDefinition | undefined };
  /** What each retrying check is waiting for, shown when the report reaches it. */
  const retrying = new Map<CheckDefinition, string>();

  const pause = o.sleep ?? realSleep;
  const stop = new AbortController();
  /** A pause that ends early when a fatal failure stops the run. */
  const sleep = (ms: number) => pause(ms, stop.signal).catch(() => undefined);

  const attempt = async (check: CheckDefinition, ctx: CheckContext): Promise<CheckOutcome> => {
    let timer: NodeJS.Timeout | undefined;
    // A little grace, so a single hung request reports the client's own timeout message.
    const timeout = new Promise<CheckOutcome>((resolve) => {
      timer = setTimeout(
        () => resolve(fail(`check timed out after ${formatGoDuration(BigInt(Math.round(o.timeoutMs)) * 1_000_000n)}`)),
        o.timeoutMs + ATTEMPT_GRACE_MS,
      );
    });
    const contextName = await ctx
      .client()
      .then((c) => c.contextName)
      .catch(() => undefined);
    try {
      return await Promise.race([check.run(ctx).catch((e: unknown) => outcomeOf(e, contextName)), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };

  const execute = async (check: CheckDefinition): Promise<Executed> => {
    const began = clock();
    let attempts = 0;
    for (;;) {
      // Retries look at a fresh view of the cluster, shared by the checks retrying in the same round.
      const generation = attempts === 0 ? 0 : 1 + Math.floor((clock() - start) / Math.max(1, o.retryIntervalMs));
      const outcome = await attempt(check, contextFor(generation));
      attempts++;
      if (outcome.kind !== 'fail' || !check.retryable || stopped) return { outcome, attempts, durationMs: clock() - began };
      if (outcome.terminal && check.failFastOn?.includes(outcome.terminal)) return { outcome, attempts, durationMs: clock() - began };
      const remaining = o.deadline - clock();
      if (remaining <= 0) return { outcome, attempts, durationMs: clock() - began };
      const message = check.surfaceErrorOnRetry ? outcome.message : 'waiting for check to complete';
      retrying.set(check, message);
      if (current.check === check) observer.waiting?.(check, message);
      await sleep(Math.min(o.retryIntervalMs, remaining));
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- another check may have stopped the run while this one slept
      if (stopped) return { outcome, attempts, durationMs: clock() - began };
    }
  };

  const running = checks.map((check) =>
    o.selected(check)
      ? limiter.run(
          () => execute(check),
          () => stopped,
        )
      : undefined,
  );
  const results: CheckResult[] = [];
  for (const [i, check] of checks.entries()) {
    const pending = running[i];
    if (!pending) {
      const r: CheckResult = {
        id: check.id,
        category: check.category,
        description: check.description,
        status: 'skipped',
        severity: check.severity,
        durationMs: 0,
        retries: 0,
        ...(o.extension === undefined ? {} : { extension: o.extension }),
      };
      results.push(r);
      observer.result?.(r);
      continue;
    }
    current.check = check;
    observer.waiting?.(check, retrying.get(check));
    const done = await pending;
    if (!done || done.outcome.kind === 'skip') continue;
    const r = toResult(check, done, o.hintBaseUrl);
    if (o.extension !== undefined) r.extension = o.extension;
    if (r.status === 'error' && check.severity === 'fatal') r.stoppedRun = true;
    results.push(r);
    observer.result?.(r);
    if (r.stoppedRun) {
      stopped = true;
      stop.abort();
      break;
    }
  }
  current.check = undefined;
  return results;
}

function toResult(check: CheckDefinition, done: Executed, hintBaseUrl: string): CheckResult {
  const base = { id: check.id, category: check.category, severity: check.severity, durationMs: Math.round(done.durationMs), retries: done.attempts - 1 };
  const { outcome } = done;
  if (outcome.kind === 'pass') {
    return { ...base, description: outcome.note ? `${check.description}\n${outcome.note}` : check.description, status: 'success' };
  }
  if (outcome.kind === 'skip') throw new Error('unreachable: skipped checks have no result');
  const status = check.severity === 'warning' && !outcome.escalate ? 'warning' : 'error';
  return { ...base, description: check.description, status, error: outcome.message, hint: `${hintBaseUrl}${check.hintAnchor}` };
}
