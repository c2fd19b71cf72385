import type { Command, Help, Option } from 'commander';
import { commandPath } from './commandPath.js';
import { NAMESPACE_ENV_NOTE, readsNamespaceEnv } from '../kit/namespaceEnv.js';

/*
 * Help in cobra's layout (Usage, Aliases, Examples, Available Commands, Flags, Global Flags), with
 * flags listed as pflag prints them: sorted by name, a Go type name after the flag, and the default
 * shown once, Go-style — only when it is not the type's zero value, quoted for strings.
 */

const examplesOf = new WeakMap<Command, string>();

/** The command's examples, shown in cobra's place (before the flags). Lines as typed, indented by the caller. */
export function setExamples(cmd: Command, examples: string): Command {
  examplesOf.set(cmd, examples.replace(/^\n+|\s+$/g, ''));
  return cmd;
}

/** The examples setExamples recorded, or ''. */
export function examplesOfCommand(cmd: Command): string {
  return examplesOf.get(cmd) ?? '';
}

/** pflag's type names, for the placeholders commands use; anything else is a string. */
const GO_TYPES = new Set(['string', 'int', 'uint', 'uint32', 'uints', 'duration', 'strings', 'stringArray', 'float', 'float32']);

/** The Go type pflag would print after the flag (`string`, `int`, `duration`, `strings`), or '' for booleans. */
export function goTypeOf(option: Option): string {
  if (!option.required && !option.optional) return '';
  const placeholder = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1] ?? '';
  if (GO_TYPES.has(placeholder)) return placeholder;
  return Array.isArray(option.defaultValue) ? 'strings' : 'string';
}

/** pflag's rendering of a default value, before quoting. */
function goValue(value: unknown): string {
  return Array.isArray(value) ? `[${value.map(String).join(',')}]` : String(value);
}

/** pflag's defaultIsZeroValue: no default note for false, 0, "", [] or 0s. */
function isZero(value: unknown, type: string): boolean {
  if (value === undefined || value === null || value === false || value === '' || value === 0) return true;
  if (Array.isArray(value)) return goValue(value) === '[]';
  return type === 'duration' && (value === '0s' || value === '0');
}

/** ` (default …)` as pflag prints it, or '' for a zero default. */
export function goDefault(option: Option): string {
  if (option.defaultValueDescription !== undefined) return ` (default ${option.defaultValueDescription})`;
  const type = goTypeOf(option);
  const value: unknown = option.defaultValue;
  if (isZero(value, type)) return '';
  if (type === 'string' && typeof value === 'string') return ` (default ${JSON.stringify(value)})`;
  return ` (default ${goValue(value)})`;
}

interface FlagRow {
  name: string;
  left: string;
  usage: string;
}

function flagRow(option: Option, usage: string): FlagRow {
  const long = option.long ?? '';
  const short = option.short ? `  ${option.short}, ${long}` : `      ${long}`;
  const type = goTypeOf(option);
  return { name: long.replace(/^--/, ''), left: type ? `${short} ${type}` : short, usage: `${usage}${goDefault(option)}` };
}

/** pflag's FlagUsages: names sorted, usages in one column three spaces after the longest name. */
function flagUsages(rows: FlagRow[]): string {
  const sorted = [...rows].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const width = Math.max(...sorted.map((r) => r.left.length));
  return sorted.map((r) => `${r.left.padEnd(width)}   ${r.usage.replace(/\n/g, `\n${' '.repeat(width + 3)}`)}`).join('\n');
}

function isHelpOption(option: Option): boolean {
  return option.long === '--help';
}

function localFlagRows(cmd: Command): FlagRow[] {
  const rows = cmd.options.filter((o) => !o.hidden && !isHelpOption(o)).map((o) => flagRow(o, o.description));
  rows.push({ name: 'help', left: '  -h, --help', usage: `help for ${cmd.name()}` });
  return rows;
}

const persistentOptions = new WeakSet<Option>();

/** cobra's PersistentFlags: `option` is also a flag of every command below the one declaring it. */
export function markPersistent(option: Option): void {
  persistentOptions.add(option);
}

/**
 * Whether `option`, declared on `owner`, reaches the commands below it. The root's flags are
 * the real CLI's persistent (global) flags; elsewhere only those marked persistent are.
 */
export function isPersistent(option: Option, owner: Command): boolean {
  return owner.parent === null || persistentOptions.has(option);
}

function inheritedFlagRows(cmd: Command): FlagRow[] {
  const rows: FlagRow[] = [];
  // Under viz and multicluster, -L is the extension's own flag: no `($LINKERD_NAMESPACE)` in its help.
  const plainNamespace = !readsNamespaceEnv(cmd);
  for (let p = cmd.parent; p; p = p.parent) {
    for (const o of p.options) {
      if (o.hidden || isHelpOption(o) || !isPersistent(o, p)) continue;
      const own = plainNamespace && p.parent === null && o.long === '--linkerd-namespace';
      rows.push(flagRow(o, own ? o.description.replace(NAMESPACE_ENV_NOTE, '') : o.description));
    }
  }
  return rows;
}

/** pflag's FlagUsages of the command's own flags (help included) and of those it inherits ('' when none). */
export function flagUsageTexts(cmd: Command): { local: string; inherited: string } {
  const inherited = inheritedFlagRows(cmd);
  return { local: flagUsages(localFlagRows(cmd)), inherited: inherited.length > 0 ? flagUsages(inherited) : '' };
}

const useOf = new WeakMap<Command, string>();

/**
 * cobra's Use after the command's name, as the real command spells it (`[flags] (RESOURCE)`,
 * `[flags] --tap resource (SERVICE)`); without it, the usage line is made from the arguments.
 */
export function setUse(cmd: Command, use: string): Command {
  useOf.set(cmd, use.trim());
  return cmd;
}

/** cobra's UseLine: `linkerd install [flags]`, with the operands; ` [flags]` is added when Use lacks it. */
export function useLine(cmd: Command): string {
  const use = useOf.get(cmd);
  if (use === undefined) return `${commandPath(cmd)} [flags]${argumentsUsage(cmd)}`;
  const line = use ? `${commandPath(cmd)} ${use}` : commandPath(cmd);
  return use.includes('[flags]') ? line : `${line} [flags]`;
}

/** ` NAME`, ` [NAME]`, ` [NAME...]`: required, optional, repeatable. */
function argumentsUsage(cmd: Command): string {
  return cmd.registeredArguments
    .map((a) => {
      const name = `${a.name()}${a.variadic ? '...' : ''}`;
      return ` ${a.required ? name : `[${name}]`}`;
    })
    .join('');
}

/** The one-line summary cobra lists a subcommand with. */
export function shortOf(cmd: Command): string {
  if (cmd.name() === 'help') return 'Help about any command';
  return (cmd.summary() || cmd.description()).split('\n')[0] ?? '';
}

/** The whole help text of `cmd`, in cobra's layout. */
export function cobraHelp(cmd: Command, helper: Help): string {
  const description = cmd.description().trim();
  return `${description ? `${description}\n\n` : ''}${usageBlock(cmd, helper)}`;
}

/** cobra's UsageString: the help without the description, printed after an operand-count error. */
export function usageString(cmd: Command): string {
  return usageBlock(cmd, cmd.createHelp());
}

function usageBlock(cmd: Command, helper: Help): string {
  const path = commandPath(cmd);
  const subcommands = helper.visibleCommands(cmd).sort((a, b) => (a.name() < b.name() ? -1 : 1));
  const out: string[] = [];
  out.push('Usage:');
  // A group that also runs on its own (it takes arguments, e.g. `identity [POD...]`) shows both lines.
  if (subcommands.length === 0 || cmd.registeredArguments.length > 0) out.push(`  ${useLine(cmd)}`);
  if (subcommands.length > 0) out.push(`  ${path} [command]`);
  if (cmd.aliases().length > 0) out.push('', 'Aliases:', `  ${[cmd.name(), ...cmd.aliases()].join(', ')}`);
  const examples = examplesOf.get(cmd);
  if (examples) out.push('', 'Examples:', examples);
  if (subcommands.length > 0) {
    const width = Math.max(11, ...subcommands.map((c) => c.name().length));
    out.push('', 'Available Commands:', ...subcommands.map((c) => `  ${c.name().padEnd(width)} ${shortOf(c)}`));
  }
  out.push('', 'Flags:', flagUsages(localFlagRows(cmd)));
  const inherited = inheritedFlagRows(cmd);
  if (inherited.length > 0) out.push('', 'Global Flags:', flagUsages(inherited));
  if (subcommands.length > 0) out.push('', `Use "${path} [command] --help" for more information about a command.`);
  return `${out.join('\n')}\n`;
}

/** Makes `program` and every command created from it afterwards print cobra-style help. */
export function useCobraHelp(program: Command): Command {
  return program.configureHelp({ formatHelp: (cmd, helper) => cobraHelp(cmd, helper) });
}
