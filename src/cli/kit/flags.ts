import type { Command, Option } from 'commander';
import { addBoolFlag } from './bools.js';
import { collect } from '../flags/collect.js';
import { markPersistent } from '../help/cobraHelp.js';

/*
 * A command's flags as data: name, shorthand, type, default, help and where TAB completes its
 * value from. The type also decides the Go type name help prints after the flag (pflag's
 * `string`, `duration`, `strings`); every boolean takes pflag's `--x=true|false` (see argv.ts).
 */

/**
 * `strings` is pflag's StringSlice (repeatable, each value may be a comma-separated list),
 * `stringArray` its StringArray (repeatable, a value is taken whole).
 */
export type FlagType = 'bool' | 'string' | 'strings' | 'stringArray' | 'duration' | 'int' | 'uint' | 'float32';

export interface FlagSpec {
  /** The long name, without dashes (`linkerd-namespace`). */
  name: string;
  /** One letter, without the dash. */
  short?: string;
  type: FlagType;
  /** Unset when omitted (a boolean then stays undefined until given). */
  default?: boolean | string | number | readonly string[];
  help: string;
  hidden?: boolean;
  /** cobra's MarkFlagRequired: the command refuses to run without it (all missing ones named at once). */
  required?: boolean;
  /** cobra's PersistentFlags: also a flag of every subcommand (help lists it under Global Flags there). */
  persistent?: boolean;
  /** A named completion source of the families (`namespaces`, `contexts`, `checkSelectors`). */
  completion?: string;
}

const completionOf = new WeakMap<Option, string>();
const requiredFlags = new WeakSet<Option>();

/** Whether `option` was declared required. */
export function isRequiredFlag(option: Option): boolean {
  return requiredFlags.has(option);
}

/** The completion source a flag declared, if any. */
export function completionSourceOf(option: Option): string | undefined {
  return completionOf.get(option);
}

/** The placeholder commander gets; cobraHelp reads the Go type name back from it. */
function placeholder(spec: FlagSpec): string {
  return `<${spec.type}>`;
}

/** Declares `spec` on `cmd`; returns the option commander made. */
export function addFlag(cmd: Command, spec: FlagSpec): Option {
  const names = spec.short ? `-${spec.short}, --${spec.name}` : `--${spec.name}`;
  if (spec.type === 'bool') {
    if (spec.default !== undefined && typeof spec.default !== 'boolean') throw new Error(`--${spec.name}: a boolean's default is true or false`);
    addBoolFlag(cmd, names, spec.help, { default: spec.default, hidden: spec.hidden });
  } else {
    const option = cmd.createOption(`${names} ${placeholder(spec)}`, spec.help).hideHelp(spec.hidden ?? false);
    if (spec.type === 'strings' || spec.type === 'stringArray') option.argParser(collect);
    if (spec.default !== undefined) option.default(spec.default);
    cmd.addOption(option);
  }
  const added = cmd.options.find((o) => o.long === `--${spec.name}`);
  if (!added) throw new Error(`--${spec.name} was not declared`);
  if (spec.completion !== undefined) completionOf.set(added, spec.completion);
  if (spec.required === true) requiredFlags.add(added);
  if (spec.persistent === true) markPersistent(added);
  return added;
}

export function addFlags(cmd: Command, specs: readonly FlagSpec[]): Command {
  for (const spec of specs) addFlag(cmd, spec);
  return cmd;
}
