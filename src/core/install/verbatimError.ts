import { UserError } from '../errors.js';

/**
 * A failure the real CLI reports with its own text on stderr (no `Error: ` prefix) before
 * exiting 1, e.g. `Linkerd CRDs must be installed first. …`. The command prints `message`
 * exactly as it is.
 */
export class VerbatimError extends UserError {
  readonly verbatim = true;
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { exitCode: 1, ...options });
    this.name = 'VerbatimError';
  }
}

export function isVerbatimError(e: unknown): e is VerbatimError {
  return e instanceof VerbatimError;
}
