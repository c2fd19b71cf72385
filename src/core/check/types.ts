import type { CheckContext } from './context.js';

/** fatal: a failure stops every later check; error: fails the run; warning: reported, does not fail the run. */
export type Severity = 'fatal' | 'error' | 'warning';

/** What `linkerd check` was asked to verify. */
export type CheckMode = 'default' | 'pre' | 'proxy' | 'crds';

/**
 * Pod states that will not fix themselves by waiting: a retryable check that finds one of
 * these fails at once instead of spinning until `--wait` runs out (linkerd/linkerd2#4680).
 */
export type TerminalState = 'unschedulable' | 'crash-loop' | 'image-pull' | 'pod-failed';

export type CheckOutcome =
  /** `note` is the real CLI's VerboseSuccess: shown on its own line under the description. */
  | { kind: 'pass'; note?: string }
  | {
      kind: 'fail';
      message: string;
      /** Set when the failure is a state waiting will not change (see TerminalState). */
      terminal?: TerminalState;
      /** Raise a warning-severity check to an error for this result (`--cert-min-validity`). */
      escalate?: boolean;
    }
  /** Not reported at all (the real SkipError): the check has no subject here. */
  | { kind: 'skip'; reason: string };

export const pass = (note?: string): CheckOutcome => (note === undefined ? { kind: 'pass' } : { kind: 'pass', note });
export const fail = (message: string, extra: { terminal?: TerminalState; escalate?: boolean } = {}): CheckOutcome => ({
  kind: 'fail',
  message,
  ...extra,
});
export const skip = (reason: string): CheckOutcome => ({ kind: 'skip', reason });

/** One check, as data. The runner decides when and how often `run` is called; `run` never sleeps or prints. */
export interface CheckDefinition {
  /** Stable identifier (`L5D<category code><two digits>`), listed by `--list`, accepted by `--skip`/`--only`. */
  id: string;
  category: CategoryId;
  /** The real CLI's words: users grep for them. */
  description: string;
  severity: Severity;
  /** Appended to the hint base URL (`https://linkerd.io/2/checks/#`). */
  hintAnchor: string;
  /** Retried every few seconds until `--wait` runs out (the real CLI's retryDeadline). */
  retryable: boolean;
  /** While retrying, show the failure itself rather than "waiting for check to complete". */
  surfaceErrorOnRetry?: boolean;
  /** Terminal states that end the retries of this check at once. */
  failFastOn?: readonly TerminalState[];
  run(ctx: CheckContext): Promise<CheckOutcome>;
}

/** A category's id: the header the real CLI prints (`linkerd-identity`), declared by its family. */
export type CategoryId = string;

export type ResultStatus = 'success' | 'warning' | 'error' | 'skipped';

/** The outcome of one check (or of one extension's check), as printers see it. */
export interface CheckResult {
  /** Core checks: their stable id; extension results: `<category>#<n>`. */
  id: string;
  category: string;
  description: string;
  /** `skipped` only for checks left out by `--skip`/`--only` (printers other than JUnit omit them). */
  status: ResultStatus;
  /** The declared severity (fatal | error | warning). */
  severity: Severity;
  /** Hint URL, set on failed and warned results. */
  hint?: string;
  error?: string;
  durationMs: number;
  /** Attempts beyond the first. */
  retries: number;
  /** Set on the fatal failure that ended the core checks. */
  stoppedRun?: boolean;
  /** The extension that reported this result: its executable's name, or `linkerd-<name>` for a family run in-process. */
  extension?: string;
}
