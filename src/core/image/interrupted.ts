import { UserError } from '../errors.js';

/** Stops a build the user interrupted (the caller's finally blocks then remove what it started). */
export function throwIfInterrupted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new UserError('interrupted; nothing was written', { exitCode: 130 });
}
