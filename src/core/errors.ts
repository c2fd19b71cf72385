/**
 * The one way core code reports a mistake the user can fix. The CLI prints
 * `Error: <message>` (plus the hint, if any) to stderr and exits with `exitCode`.
 */
export class UserError extends Error {
  readonly exitCode: number;
  readonly hint?: string;

  constructor(message: string, options: { exitCode?: number; hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'UserError';
    this.exitCode = options.exitCode ?? 1;
    this.hint = options.hint;
  }
}

export function isUserError(e: unknown): e is UserError {
  return e instanceof UserError;
}
