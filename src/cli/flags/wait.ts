import { invalidArgument } from '../../core/parse/invalidArgument.js';
import { parseGoDuration } from '../../core/values/duration.js';
import type { FlagSpec } from '../kit/flags.js';

/* An extension install's `--wait` (viz, multicluster): the deadline of its pre-check for the control plane. */

export const WAIT_FLAG: FlagSpec = { name: 'wait', type: 'duration', default: '5m0s', help: 'Wait for core control-plane components to be available' };

/** `--wait` in milliseconds, with pflag's refusal of a bad duration. */
export function parseWait(value: string, flag = 'wait'): number {
  let ns: bigint;
  try {
    ns = parseGoDuration(value);
  } catch (e) {
    throw invalidArgument(value, flag, (e as Error).message);
  }
  return ns < 0n ? 0 : Number(ns / 1_000_000n);
}
