export interface UserErrorOptions {
  /** The process exit code (default 1). */
  exitCode?: number;
  /** A line printed after the message. */
  hint?: string;
  /**
   * A usage mistake found by a command's run (a missing operand): the CLI prints the command's
   * usage block after the message, as cobra does for an error returned from RunE.
   */
  usage?: boolean;
  cause?: unknown;
}

/**
 * The one way core code reports a mistake the user can fix. The CLI prints `Error: <message>`
 * (plus the hint, if any) to stderr and exits with `exitCode`.
 *
 * A verbatim error (`UserError.verbatim`) carries the real CLI's own text for a failure it reports
 * without the `Error: ` prefix (install's and inject's cluster pre-checks, e.g. `Linkerd CRDs must
 * be installed first. …`): the CLI prints `message` exactly as it is, newlines included.
 */
export class UserError extends Error {
  readonly exitCode: number;
  readonly hint?: string;
  readonly usage: boolean;
  readonly verbatim: boolean;

  constructor(message: string, options: UserErrorOptions = {}, verbatim = false) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'UserError';
    this.exitCode = options.exitCode ?? 1;
    this.hint = options.hint;
    this.usage = options.usage === true;
    this.verbatim = verbatim;
  }

  /** The real CLI's own text, printed as is (no `Error: ` prefix, no hint, no added newline). */
  static verbatim(text: string, options: Omit<UserErrorOptions, 'hint'> = {}): UserError {
    return new UserError(text, options, true);
  }
}

export function isUserError(e: unknown): e is UserError {
  return e instanceof UserError;
}

/** The first line of an error's message (or of what was thrown), for one-line reports. */
export function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
}
