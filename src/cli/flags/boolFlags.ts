import type { Command } from 'commander';
import { invalidArgument, parseBoolReason } from '../../core/pflagErrors.js';
import { parseGoBool, VALUE_FLAGS } from '../../core/values/flags.js';

/*
 * pflag booleans take `--ha`, `--ha=true` and `--ha=false` (any strconv.ParseBool spelling);
 * commander booleans take no value. A boolean declared with addBoolFlag has a hidden `--no-<name>`
 * twin, and the kit (src/cli/kit/argv.ts) rewrites `--<name>=<bool>` to one of the two before
 * commander parses.
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
  const b = parseGoBool(word);
  if (b === undefined) throw invalidArgument(word, { name, short }, parseBoolReason(word));
  return b ? `--${name}` : `--no-${name}`;
}

const VALUE_FLAG_BOOLS: ReadonlySet<string> = new Set(VALUE_FLAGS.filter((f) => f.kind === 'bool').map((f) => f.name));

/**
 * Rewrites `--<bool>=true|false` (any strconv.ParseBool spelling) to `--<bool>` / `--no-<bool>`
 * for the booleans named in `bools` (by default every boolean of the values flag table).
 * Arguments after `--` are left alone.
 */
export function normalizeBoolFlagArgs(argv: readonly string[], bools: ReadonlySet<string> = VALUE_FLAG_BOOLS): string[] {
  const out: string[] = [];
  let positional = false;
  for (const arg of argv) {
    const m = positional ? null : /^--([^=]+)=(.*)$/s.exec(arg);
    if (arg === '--') positional = true;
    const name = m?.[1];
    const word = m?.[2];
    out.push(name === undefined || word === undefined || !bools.has(name) ? arg : boolFlagArg(name, word));
  }
  return out;
}
