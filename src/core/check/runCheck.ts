import { CheckRun, type CheckOptions } from './context.js';
import { runExtensions } from './extensions.js';
import { extensionNamespaces } from './facts.js';
import { checksFor } from './registry.js';
import { runChecks, type RunnerObserver, type Sleep } from './runner.js';
import { Selector, type Selection } from './selection.js';
import type { CheckDefinition, CheckResult } from './types.js';

export const VERSIONCHECK_URL = 'https://versioncheck.linkerd.io/version.json';
export const DEFAULT_WAIT_MS = 5 * 60_000;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRY_INTERVAL_MS = 5_000;
export const DEFAULT_VERSIONCHECK_TIMEOUT_MS = 5_000;

/** `https://linkerd.io/<major.minor>/checks/#` for stable releases, else the `/2/` page. */
export function hintBaseUrl(version: string): string {
  const m = version.match(/stable-(\d\.\d+)\./);
  return m ? `https://linkerd.io/${m[1]}/checks/#` : 'https://linkerd.io/2/checks/#';
}

export interface CheckRequest extends CheckOptions {
  /** `--wait`: retryable checks are retried until this long after the start. */
  waitMs: number;
  retryIntervalMs?: number;
  /** 1 runs checks one after another (the real CLI's way); default: all independent checks at once. */
  concurrency?: number;
  selection?: Selection;
  /** Time source and pause between retries (default: real time); tests inject virtual time. */
  clock?: () => number;
  sleep?: Sleep;
  /** `--fail-on warning`: warnings fail the run too. */
  failOn?: 'error' | 'warning';
  /** Extension checks; omitted (or in --pre/--crds modes) they do not run. */
  extensions?: {
    path: string;
    forwardFlags: string[];
    timeoutMs: number;
  };
}

export interface CheckReport {
  /** Core results in order, then extension results (`extension` set). */
  results: CheckResult[];
  /** No error (and, with `--fail-on warning`, no warning). */
  success: boolean;
  /** Some result is a warning. */
  warning: boolean;
  hintBaseUrl: string;
  /** `--skip`/`--only` values that matched no check. */
  unmatchedSelectors: string[];
  /** Core checks that never ran because a fatal check failed before them. */
  notRun: Array<Pick<CheckDefinition, 'id' | 'category' | 'description' | 'severity'>>;
}

/** Progress of a run: the check being waited on, and each result as soon as it is final (in order). */
export type CheckEvents = RunnerObserver;

/** `linkerd check`: the core checks of the mode, then extension checks, as one report. */
export async function runCheck(req: CheckRequest, events: CheckEvents = {}): Promise<CheckReport> {
  const base = hintBaseUrl(req.cliVersion);
  const selector = new Selector(req.selection ?? { skip: [], only: [] });
  const run = new CheckRun(req);
  const checks: CheckDefinition[] = checksFor(req.mode, { cniEnabled: req.cniEnabled });
  const start = (req.clock ?? Date.now)();
  try {
    const extensionOptions = req.extensions;
    const extensionsWanted = extensionOptions !== undefined && (req.mode === 'default' || req.mode === 'proxy') && !selector.excludesExtensions;
    const core = await runChecks(
      checks,
      (generation) => run.context(generation),
      {
        deadline: start + req.waitMs,
        retryIntervalMs: req.retryIntervalMs ?? DEFAULT_RETRY_INTERVAL_MS,
        timeoutMs: req.timeoutMs,
        concurrency: req.concurrency ?? Number.POSITIVE_INFINITY,
        hintBaseUrl: base,
        selected: (c) => selector.selected(c),
        clock: req.clock,
        sleep: req.sleep,
      },
      events,
    );

    let extensionResults: CheckResult[] = [];
    if (extensionsWanted) {
      let labelled: string[] | undefined;
      try {
        labelled = (await extensionNamespaces(run.context(0))).map((e) => e.extension).filter((e) => e !== '');
      } catch (e) {
        // Without the cluster, only PATH extensions can be found; the core checks already say why.
        if (!core.some((r) => r.stoppedRun)) {
          extensionResults.push({
            id: 'linkerd-extensions#1',
            category: 'linkerd-extensions',
            description: 'can discover Linkerd extensions',
            status: 'error',
            severity: 'error',
            hint: `${base}extensions`,
            error: `failed to run extensions checks: ${(e as Error).message}`,
            durationMs: 0,
            retries: 0,
            extension: 'linkerd-extensions',
          });
        }
      }
      const found = await runExtensions(labelled ?? [], { ...extensionOptions, hintBaseUrl: base, env: req.env });
      extensionResults = [
        ...extensionResults,
        ...found.map((r) => (selector.selected(r) ? r : { ...r, status: 'skipped' as const, hint: undefined, error: undefined })),
      ];
      for (const r of extensionResults) events.result?.(r);
    }

    const results = [...core, ...extensionResults];
    const warning = results.some((r) => r.status === 'warning');
    const failed = results.some((r) => r.status === 'error') || (req.failOn === 'warning' && warning);
    const seen = new Set(core.map((r) => r.id));
    const stoppedAt = core.find((r) => r.stoppedRun);
    const notRun =
      stoppedAt === undefined
        ? []
        : checks
            .slice(checks.findIndex((c) => c.id === stoppedAt.id) + 1)
            .filter((c) => !seen.has(c.id))
            .map(({ id, category, description, severity }) => ({ id, category, description, severity }));
    return { results, success: !failed, warning, hintBaseUrl: base, unmatchedSelectors: selector.unmatched(), notRun };
  } finally {
    await run.close();
  }
}
