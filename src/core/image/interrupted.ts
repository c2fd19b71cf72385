import { constants } from 'node:os';
import { UserError } from '../errors.js';

/**
 * Stops a build the user interrupted (the caller's finally blocks then remove what it started). The
 * exit code is the one a shell gives for the signal the abort carries as its reason (130 for
 * SIGINT, 143 for SIGTERM, 129 for SIGHUP); 130 when the reason names no signal.
 */
export function throwIfInterrupted(signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return;
  const reason: unknown = signal.reason;
  const number = typeof reason === 'string' && reason in constants.signals ? constants.signals[reason as NodeJS.Signals] : constants.signals.SIGINT;
  throw new UserError('interrupted; nothing was written', { exitCode: 128 + number });
}
