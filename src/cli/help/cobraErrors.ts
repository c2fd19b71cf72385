import type { Command } from 'commander';
import { UserError } from '../../core/errors.js';
import { usageString } from './cobraHelp.js';
import { commandPath } from './commandPath.js';

/*
 * commander's parse errors in the words of pflag and cobra, which the real CLI's users (and their
 * scripts) know: `unknown flag: --x`, `unknown shorthand flag: 'x' in -x`, `flag needs an argument:
 * --x`, `unknown command "y" for "linkerd version"`. Each is one `Error:` line, then where to read
 * the usage (cobra prints the whole usage there; one line keeps the error visible).
 */

export { commandPath };

/** Whether `token` (`-x` or `--name`, no `=value`) is an option of `cmd` or its ancestors that takes a value. */
function takesValue(cmd: Command, token: string): boolean {
  if (token.includes('=')) return false;
  for (let c: Command | null = cmd; c; c = c.parent) {
    const opt = c.options.find((o) => o.long === token || o.short === token);
    if (opt) return opt.required || opt.optional;
  }
  return false;
}

/**
 * The command the arguments name (`install -L` names install): the root reports errors in flags
 * it owns, wherever they stand, and cobra's hint names the command being run.
 */
export function commandNamed(root: Command, args: readonly string[]): Command {
  let cmd = root;
  let skip = false;
  for (const a of args) {
    if (skip) {
      skip = false;
      continue;
    }
    if (a === '--') break;
    if (a.startsWith('-')) {
      skip = takesValue(cmd, a);
      continue;
    }
    const sub = cmd.commands.find((c) => c.name() === a || c.aliases().includes(a));
    if (!sub) break;
    cmd = sub;
  }
  return cmd;
}

/**
 * How a flag that lacks its value was typed, in pflag's words: `--namespace`, or `'n' in -n` for a
 * shorthand (also the last of a group, `'n' in -vn`). The last such word before `--` is the one.
 */
function typedFlag(args: readonly string[], long: string, short: string | undefined): string {
  const end = args.indexOf('--');
  for (const a of [...(end < 0 ? args : args.slice(0, end))].reverse()) {
    if (a === long) return long;
    const c = short?.slice(1);
    if (c !== undefined && /^-[^-]/.test(a) && a.endsWith(c)) return `'${c}' in ${a}`;
  }
  return long;
}

/** One commander error message (`error: …`, maybe a suggestion line) of the command at `path` as pflag and cobra word it. */
export function pflagText(message: string, path: string, args: readonly string[] = []): string {
  const [first = '', ...rest] = message
    .replace(/^error: /, '')
    .replace(/\n$/, '')
    .split('\n');
  let line = first;
  let m: RegExpExecArray | null;
  if ((m = /^unknown option '(--[^'=]+)(?:=[^']*)?'$/.exec(first))) line = `unknown flag: ${m[1] ?? ''}`;
  else if ((m = /^unknown option '-([^-'])([^']*)'$/.exec(first))) line = `unknown shorthand flag: '${m[1] ?? ''}' in -${m[1] ?? ''}${m[2] ?? ''}`;
  else if ((m = /^option '(?:(-\w), )?(--[\w-]+)[^']*' argument missing$/.exec(first))) line = `flag needs an argument: ${typedFlag(args, m[2] ?? '', m[1])}`;
  else if ((m = /^unknown command '([^']*)'$/.exec(first))) line = `unknown command "${m[1] ?? ''}" for "${path}"`;
  return [line, ...rest].join('\n');
}

export function usageHint(cmd: Command): string {
  return `Run '${commandPath(cmd)} --help' for usage.`;
}

/**
 * cobra's Args rules the declared operands do not imply: RangeArgs(min, max), MinimumNArgs(min)
 * (no `max`), or none at all.
 */
export type Arity = 'any' | { readonly min: number; readonly max?: number };

const arities = new WeakMap<Command, Arity>();

/** Declares `cmd`'s Args rule (the kit does, from a command's `arity`). */
export function setArity(cmd: Command, arity: Arity): void {
  const max = arity === 'any' ? 0 : (arity.max ?? arity.min);
  if (arity !== 'any' && !(Number.isInteger(arity.min) && Number.isInteger(max) && 0 <= arity.min && arity.min <= max)) {
    throw new Error(`${commandPath(cmd)}: arity needs integers 0 <= min <= max`);
  }
  arities.set(cmd, arity);
}

/** `cmd`'s declared Args rule, if it has one. */
export function arityOf(cmd: Command): Arity | undefined {
  return arities.get(cmd);
}

/** cobra.RangeArgs's words, or cobra.MinimumNArgs's when there is no maximum. */
function arityText(arity: { readonly min: number; readonly max?: number }, received: number): string {
  return arity.max === undefined
    ? `requires at least ${arity.min} arg(s), only received ${received}`
    : `accepts between ${arity.min} and ${arity.max} arg(s), received ${received}`;
}

/**
 * A missing operand (commander finds a required argument absent before any hook runs) as
 * cobra.ExactArgs, or the command's declared arity, words it: how many it takes, how many it got.
 */
function missingArgumentText(message: string, cmd: Command): string {
  if (!/^error: missing required argument '[^']*'\n?$/.test(message)) return message;
  const arity = arities.get(cmd);
  if (arity !== undefined && arity !== 'any') return `error: ${arityText(arity, cmd.args.length)}`;
  const required = cmd.registeredArguments.filter((a) => a.required).length;
  return `error: accepts ${required} arg(s), received ${cmd.args.length}`;
}

/**
 * Makes `cmd` and every command below it report parse errors in pflag's words, with the usage
 * hint of the command `args` (the command line, without node and the script) run.
 */
export function useCobraErrors(cmd: Command, args: readonly string[]): void {
  cmd.configureOutput({
    outputError: (str, write) => {
      const running = cmd.parent ? cmd : commandNamed(cmd, args);
      const missing = missingArgumentText(str, cmd);
      const after = missing === str ? usageHint(running) : usageString(running);
      write(`Error: ${pflagText(missing, commandPath(running), args)}\n${after}\n`);
    },
  });
  for (const sub of cmd.commands) useCobraErrors(sub, args);
}

/**
 * cobra's Args rule, checked before anything else runs (as cobra does, before PersistentPreRunE):
 * a declared arity says RangeArgs's or MinimumNArgs's words, or (`'any'`, a command without Args)
 * lets any number through; otherwise more operands than a command without a variadic argument
 * declares is an unknown command (cobra.NoArgs) or too many (cobra.MaximumNArgs). commander's own
 * check is switched off (allowExcessArguments) so this one speaks.
 */
export function checkOperandCount(cmd: Command): void {
  const arity = arities.get(cmd);
  if (arity === 'any') return;
  if (arity !== undefined) {
    const n = cmd.args.length;
    if (n < arity.min || (arity.max !== undefined && n > arity.max)) throw new UserError(arityText(arity, n), { hint: usageString(cmd) });
    return;
  }
  const declared = cmd.registeredArguments;
  if (declared.some((a) => a.variadic) || cmd.args.length <= declared.length) return;
  const path = commandPath(cmd);
  const message =
    declared.length === 0 ? `unknown command "${cmd.args[0] ?? ''}" for "${path}"` : `accepts at most ${declared.length} arg(s), received ${cmd.args.length}`;
  throw new UserError(message, { hint: declared.length === 0 ? usageHint(cmd) : usageString(cmd) });
}
