import { CheckRun, type CheckOptions } from './context.js';
import { CORE_CHECK_FAMILY } from './coreFamily.js';
import { inProcessExtensions, pathExtensions, runExtensions } from './extensions.js';
import { extensionNamespaces } from './facts.js';
import { CheckRegistry, MODES, familyChecks, refuseDuplicateExtensions, type CheckFamily, type CheckFamilyEntry } from './family.js';
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
  /** The family whose checks run first: the core one unless given (`linkerd viz check` runs viz's alone). */
  family?: CheckFamily;
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
  /** Extension executables on PATH; omitted (or in --pre/--crds modes) they do not run. */
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
  /** Checks (core, then in-process extensions') that never ran because a fatal check of theirs failed before them. */
  notRun: Array<Pick<CheckDefinition, 'id' | 'category' | 'description' | 'severity'>>;
  /** Set when the extensions could not be discovered: the run stopped after the core checks. */
  extensionError?: string;
}

/** Progress of a run: the check being waited on, and each result as soon as it is final (in order). */
export type CheckEvents = RunnerObserver;

/** The checks that never ran because a fatal check failed before them. */
function notRunAfter(checks: CheckDefinition[], results: CheckResult[]): CheckReport['notRun'] {
  const stoppedAt = results.find((r) => r.stoppedRun);
  if (stoppedAt === undefined) return [];
  const seen = new Set(results.map((r) => r.id));
  return checks
    .slice(checks.findIndex((c) => c.id === stoppedAt.id) + 1)
    .filter((c) => !seen.has(c.id))
    .map(({ id, category, description, severity }) => ({ id, category, description, severity }));
}

/**
 * `linkerd check`: the core checks of the mode, then extension checks, as one report. An
 * installed extension whose family is among `families` runs in-process, through the same
 * runner; any other runs as a `linkerd-<name>` executable from PATH.
 */
export async function runCheck(req: CheckRequest, events: CheckEvents = {}, families: readonly CheckFamilyEntry[] = []): Promise<CheckReport> {
  refuseDuplicateExtensions(families);
  const base = hintBaseUrl(req.cliVersion);
  const selector = new Selector(req.selection ?? { skip: [], only: [] });
  const run = new CheckRun(req);
  const first = req.family ?? CORE_CHECK_FAMILY;
  const registry = new CheckRegistry([first]);
  const clock = req.clock ?? Date.now;
  const runFamily = (checks: CheckDefinition[], extension?: string) =>
    runChecks(
      checks,
      (generation) => run.context(generation),
      {
        // Each extension gets the whole --wait from its own start, as the real CLI's subprocess does.
        deadline: clock() + req.waitMs,
        retryIntervalMs: req.retryIntervalMs ?? DEFAULT_RETRY_INTERVAL_MS,
        timeoutMs: req.timeoutMs,
        concurrency: req.concurrency ?? Number.POSITIVE_INFINITY,
        hintBaseUrl: base,
        selected: (c) => selector.selected(c),
        clock: req.clock,
        sleep: req.sleep,
        ...(extension === undefined ? {} : { extension }),
      },
      events,
    );
  const checks = familyChecks(first, req.mode, req);
  try {
    const pathOptions = req.extensions;
    const extensionsWanted = MODES[req.mode].extensions && (pathOptions !== undefined || families.length > 0) && !selector.excludesExtensions;
    const core = await runFamily(checks);
    const notRun = notRunAfter(checks, core);

    let extensionResults: CheckResult[] = [];
    if (extensionsWanted) {
      let labelled: string[];
      try {
        labelled = (await extensionNamespaces(run.context(0))).map((e) => e.extension).filter((e) => e !== '');
      } catch (e) {
        // The real CLI stops here, core results printed, with this one line on stderr and exit 1.
        const results = [...core];
        const warning = results.some((r) => r.status === 'warning');
        const extensionError = `Failed to run extensions checks: ${(e as Error).message}`;
        return { results, success: false, warning, hintBaseUrl: base, unmatchedSelectors: selector.unmatched(), notRun, extensionError };
      }
      const executables = pathOptions ? pathExtensions(pathOptions.path) : new Map<string, string>();
      const inProcess = inProcessExtensions(labelled, families, executables);
      const handled = new Set(inProcess.map((e) => e.extension));
      const fromPath = pathOptions
        ? runExtensions(
            labelled.filter((e) => !handled.has(e)),
            { ...pathOptions, hintBaseUrl: base, env: req.env },
            executables,
          )
        : Promise.resolve([]);
      // Executables run while the in-process checks do; their results follow, as the real CLI orders them.
      fromPath.catch(() => undefined);
      for (const entry of inProcess) {
        const family = await entry.load();
        registry.register(family);
        const planned = familyChecks(family, req.mode, req);
        const results = await runFamily(planned, `linkerd-${entry.extension}`);
        extensionResults = [...extensionResults, ...results];
        notRun.push(...notRunAfter(planned, results));
      }
      const found = (await fromPath).map((r) => (selector.selected(r) ? r : { ...r, status: 'skipped' as const, hint: undefined, error: undefined }));
      for (const r of found) events.result?.(r);
      extensionResults = [...extensionResults, ...found];
    }

    const results = [...core, ...extensionResults];
    const warning = results.some((r) => r.status === 'warning');
    const failed = results.some((r) => r.status === 'error') || (req.failOn === 'warning' && warning);
    return { results, success: !failed, warning, hintBaseUrl: base, unmatchedSelectors: selector.unmatched(), notRun };
  } finally {
    await run.close();
  }
}
