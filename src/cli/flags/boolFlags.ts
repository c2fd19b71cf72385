import type { Command } from 'commander';
import { UserError } from '../../core/errors.js';
import { parseGoBool, VALUE_FLAGS } from '../../core/values/flags.js';

/*
 * pflag booleans take `--ha`, `--ha=true` and `--ha=false` (any strconv.ParseBool spelling);
 * commander booleans take no value. A boolean declared with addBoolFlag has a hidden `--no-<name>`
 * twin, and acceptGoBools rewrites `--<name>=<bool>` to one of the two before commander parses.
 */

/** Declares the boolean `--<name>` (or `-s, --<name>`) and its hidden `--no-<name>`. */
export function addBoolFlag(command: Command, flags: string, help: string, options: { default?: boolean; hidden?: boolean } = {}): Command {
  const option = command.createOption(flags, help).hideHelp(options.hidden ?? false);
  if (options.default !== undefined) option.default(options.default);
  command.addOption(option);
  const long = option.long ?? flags;
  return command.addOption(command.createOption(`--no-${long.replace(/^--/, '')}`, `Set ${long}=false`).hideHelp());
}

/** The long names (without dashes) of `command`'s booleans that have a `--no-` twin. */
function negatableBools(command: Command): Set<string> {
  const longs = new Set(command.options.map((o) => o.long));
  const names = command.options
    .filter((o) => o.isBoolean() && !o.negate && o.long !== undefined && longs.has(`--no-${o.long.slice(2)}`))
    .map((o) => (o.long ?? '').slice(2));
  return new Set(names);
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
    if (name === undefined || word === undefined || !bools.has(name)) {
      out.push(arg);
      continue;
    }
    const b = parseGoBool(word);
    if (b === undefined) {
      throw new UserError(`invalid argument ${JSON.stringify(word)} for "--${name}" flag: strconv.ParseBool: parsing ${JSON.stringify(word)}: invalid syntax`);
    }
    out.push(b ? `--${name}` : `--no-${name}`);
  }
  return out;
}

/** Lets `command` take pflag's `--<name>=false` for each of its booleans declared with a `--no-` twin. */
export function acceptGoBools(command: Command): Command {
  const parseOptions = command.parseOptions.bind(command);
  command.parseOptions = (argv: string[]) => parseOptions(normalizeBoolFlagArgs(argv, negatableBools(command)));
  return command;
}
