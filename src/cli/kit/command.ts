import type { Command, Option } from 'commander';
import type { GlobalOptions } from '../globals.js';
import { setArgumentChoices } from '../completion/complete.js';
import { UserError, isUserError } from '../../core/errors.js';
import { type Arity, commandPath, setArity, usageHint } from '../help/cobraErrors.js';
import { isPersistent, setExamples, setUse, usageString } from '../help/cobraHelp.js';
import { markDeprecated } from './deprecation.js';
import { setDashDashRewrite, type DashDashRewrite } from './argv.js';
import { addFlags, isRequiredFlag, type FlagSpec } from './flags.js';
import type { CliIo } from './io.js';

/*
 * A command as data: its summary and help, operands, flags, examples and subcommands, and what it
 * runs. The kit turns it into commander commands; the action gets the operands, the flags, the
 * global flags (resolved once, before any action) and the streams to write to.
 */

export interface ArgSpec {
  /** As usage shows it (`CONFIG-FILE`, `shell`). */
  name: string;
  help: string;
  required?: boolean;
  variadic?: boolean;
  /** Values TAB offers (e.g. the shells of `completion`). */
  choices?: readonly string[];
}

export interface RunContext {
  /** The operands, one entry per declared argument (an array for a variadic one). */
  args: unknown[];
  /**
   * The command's own flags as commander parsed them (attribute names: `ignoreCluster`), and the
   * persistent flags its parent commands declare (`viz`'s `--viz-namespace`); the root's are `globals`.
   */
  flags: Record<string, unknown>;
  globals: GlobalOptions;
  io: CliIo;
  /** The commander command, for readers of flag tables declared through `configure`. */
  command: Command;
}

/** Resolves to the exit code, or to nothing for 0. */
export type RunCommand = (ctx: RunContext) => Promise<number> | Promise<void>;

/** A top-level command's body; its name, aliases and summary come from its family's declaration. */
export interface CommandBody {
  /** cobra's Long: the text atop its help (the summary when omitted). */
  long?: string;
  args?: readonly ArgSpec[];
  /** cobra's Use after the name (`[flags] (RESOURCE)`), when it is not made from `args`. */
  use?: string;
  /**
   * cobra's Args rule when the declared operands do not imply it (they imply ExactArgs,
   * MaximumNArgs or NoArgs): `{ min }` is MinimumNArgs(min) (`requires at least 1 arg(s), only
   * received 0`), `{ min, max }` is RangeArgs(min, max) (`accepts between 1 and 2
   * arg(s), received 0`); `'any'` is no Args at all, so extra operands are accepted and ignored.
   */
  arity?: Arity;
  flags?: readonly FlagSpec[];
  /** Flags another table declares (the values flags), and other commander settings. */
  configure?: (cmd: Command) => void;
  examples?: string;
  subcommands?: readonly CommandSpec[];
  dashDash?: DashDashRewrite;
  /**
   * The command reads the global `--api-addr` (talks to a control-plane service at host:port);
   * given to any other command, it is ignored with a warning.
   */
  apiAddr?: boolean;
  run?: RunCommand;
}

export interface CommandSpec extends CommandBody {
  name: string;
  aliases?: readonly string[];
  summary: string;
  /** cobra's Hidden: runs, but help, completion and the reference leave it out. */
  hidden?: boolean;
  /**
   * cobra's Deprecated: the command is hidden from its parent's help and, before its flags are
   * parsed, prints `Command "<name>" is deprecated, <deprecated>` to stderr.
   */
  deprecated?: string;
}

/** What every action of one run shares: the streams, and the globals once resolved. */
export interface RunSession {
  io: CliIo;
  globals(): GlobalOptions;
  /** The exit code of the action that ran. */
  exitCode: number;
}

/** The cobra Short and Long of `spec` on `cmd`. */
function describe(cmd: Command, spec: Pick<CommandSpec, 'summary' | 'long' | 'aliases'>): Command {
  cmd.summary(spec.summary).description(spec.long ?? spec.summary);
  if (spec.aliases && spec.aliases.length > 0) cmd.aliases([...spec.aliases]);
  return cmd;
}

/** A command help can list without its module: name, aliases and summary only. */
export function addCommandStub(parent: Command, head: Pick<CommandSpec, 'name' | 'summary' | 'aliases' | 'hidden' | 'deprecated'>): Command {
  const cmd = describe(parent.command(head.name, { hidden: head.hidden === true || head.deprecated !== undefined }), head);
  if (head.deprecated !== undefined) markDeprecated(cmd);
  return cmd;
}

/** The option's attribute name as commander stores its value (`trustAnchorFile`). */
const attributeOf = (o: Option) => o.attributeName();

/**
 * cobra's ValidateRequiredFlags: every required flag not given, named together in pflag's order
 * (sorted), before the command does anything.
 */
function checkRequiredFlags(cmd: Command): void {
  const missing = cmd.options
    .filter((o) => isRequiredFlag(o) && cmd.getOptionValue(attributeOf(o)) === undefined)
    .map((o) => (o.long ?? '').replace(/^--/, ''))
    .sort();
  if (missing.length > 0) throw new UserError(`required flag(s) ${missing.map((m) => JSON.stringify(m)).join(', ')} not set`, { hint: usageHint(cmd) });
}

/**
 * A flag of a parent command that is not persistent is not a flag of its subcommands (pflag:
 * `unknown flag`); commander would take it anywhere on the line and drop it silently.
 */
function checkAncestorFlags(cmd: Command): void {
  for (let p = cmd.parent; p?.parent; p = p.parent) {
    const given = p.options.find((o) => !isPersistent(o, p) && p.getOptionValueSource(attributeOf(o)) === 'cli');
    if (given) throw new UserError(`unknown flag: ${given.long ?? given.flags}`, { hint: usageHint(cmd) });
  }
}

/** The commands declared with `apiAddr: true`. */
const API_ADDR_USERS = new WeakSet<Command>();

/** Whether `cmd` reads the global `--api-addr` (declared with `apiAddr: true`). */
export function usesApiAddr(cmd: Command): boolean {
  return API_ADDR_USERS.has(cmd);
}

/** The values of the persistent flags of the commands between the root and `cmd`, then `cmd`'s own. */
function flagsOf(cmd: Command): Record<string, unknown> {
  const inherited: Record<string, unknown> = {};
  const above: Command[] = [];
  for (let p = cmd.parent; p?.parent; p = p.parent) above.unshift(p);
  for (const p of above) {
    for (const o of p.options) {
      const value: unknown = p.getOptionValue(attributeOf(o));
      if (isPersistent(o, p) && value !== undefined) inherited[attributeOf(o)] = value;
    }
  }
  return { ...inherited, ...cmd.opts() };
}

/** Declares `spec` (and its subcommands) under `parent`. */
export function addCommand(parent: Command, spec: CommandSpec, session: RunSession): Command {
  const cmd = describe(parent.command(spec.name, { hidden: spec.hidden === true || spec.deprecated !== undefined }), spec);
  if (spec.apiAddr === true) API_ADDR_USERS.add(cmd);
  if (spec.arity !== undefined) setArity(cmd, spec.arity);
  for (const a of spec.args ?? []) {
    const name = `${a.name}${a.variadic ? '...' : ''}`;
    cmd.argument(a.required ? `<${name}>` : `[${name}]`, a.help);
    if (a.choices) setArgumentChoices(cmd, a.choices);
  }
  addFlags(cmd, spec.flags ?? []);
  spec.configure?.(cmd);
  if (spec.examples !== undefined) setExamples(cmd, spec.examples);
  if (spec.use !== undefined) setUse(cmd, spec.use);
  if (spec.deprecated !== undefined) {
    markDeprecated(cmd);
    // cobra prints the deprecation before it parses the command's flags: on --help, a flag or
    // argument error too, not only when the command runs.
    const deprecated = spec.deprecated;
    parent.hook('preSubcommand', (_parent, sub) => {
      if (sub === cmd) session.io.stderr.write(`Command ${JSON.stringify(spec.name)} is deprecated, ${deprecated}\n`);
    });
  }
  if (spec.dashDash) setDashDashRewrite(cmd, spec.dashDash);
  for (const sub of spec.subcommands ?? []) addCommand(cmd, sub, session);
  const run = spec.run;
  if (run) {
    cmd.action(async () => {
      checkAncestorFlags(cmd);
      checkRequiredFlags(cmd);
      const globals = session.globals();
      if (globals.apiAddr !== undefined && spec.apiAddr !== true) {
        session.io.stderr.write(`Warning: --api-addr is ignored by "${commandPath(cmd)}"\n`);
      }
      const code: unknown = await run({ args: cmd.processedArgs as unknown[], flags: flagsOf(cmd), globals, io: session.io, command: cmd }).catch(
        (e: unknown) => {
          // cobra prints the usage block after an error RunE returns; the run marks its usage mistakes.
          if (isUserError(e) && e.usage && e.hint === undefined) throw new UserError(e.message, { exitCode: e.exitCode, hint: usageString(cmd), cause: e });
          throw e;
        },
      );
      session.exitCode = typeof code === 'number' ? code : 0;
    });
  } else {
    // cobra runs a command without Run (a group: `linkerd image`) as a request for its help: stdout, exit 0.
    cmd.action(() => {
      checkAncestorFlags(cmd);
      cmd.outputHelp();
    });
  }
  return cmd;
}
