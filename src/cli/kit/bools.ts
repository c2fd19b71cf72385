import type { Command } from 'commander';
import { goBool } from '../../core/parse/strconv.js';
import { invalidArgument } from '../../core/parse/invalidArgument.js';

/*
 * pflag booleans take `--ha`, `--ha=true` and `--ha=false` (any strconv.ParseBool spelling);
 * commander booleans take no value. A boolean declared with addBoolFlag has a hidden `--no-<name>`
 * twin, and the kit (argv.ts) rewrites `--<name>=<bool>` to one of the two before commander parses.
 */

/** Declares the boolean `--<name>` (or `-s, --<name>`) and its hidden `--no-<name>`. */
export function addBoolFlag(command: Command, flags: string, help: string, options: { default?: boolean; hidden?: boolean } = {}): Command {
  const option = command.createOption(flags, help).hideHelp(options.hidden ?? false);
  if (options.default !== undefined) option.default(options.default);
  command.addOption(option);
  const long = option.long ?? flags;
  return command.addOption(command.createOption(`--no-${long.replace(/^--/, '')}`, `Set ${long}=false`).hideHelp());
}

/** `--<name>` or `--no-<name>` for the boolean `name` set to `word`, or pflag's error. */
export function boolFlagArg(name: string, word: string, short?: string): string {
  const b = goBool(word);
  if (!b.ok) throw invalidArgument(word, { name, short }, b.reason);
  return b.value ? `--${name}` : `--no-${name}`;
}
