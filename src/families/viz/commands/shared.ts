import { UserError } from '../../../core/errors.js';
import { invalidArgument } from '../../../core/parse/invalidArgument.js';
import { parseGoDuration } from '../../../core/values/duration.js';
import type { FlagSpec } from '../../../cli/kit/flags.js';
import { renderManifest } from '../../../cli/output/manifest.js';

/* What the viz commands share: `--wait`, and the manifest printer's formats and refusal. */

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

/** yaml (`---` documents) or json (one object a line); any other format is the real command's error. */
export function vizManifest(objects: readonly object[], format: string): string {
  if (format !== 'yaml' && format !== 'json') throw new UserError(`unsupported format ${format}`);
  return renderManifest(objects, format);
}

/** uninstall's and prune's `-o`, as the core commands check it. */
export function stubFormat(format: string): 'yaml' | 'json' {
  if (format !== 'yaml' && format !== 'json') throw new UserError(`unsupported format ${format}`);
  return format;
}
