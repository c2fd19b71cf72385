import { Command, CommanderError } from 'commander';
import { isUserError } from '../core/errors.js';
import { FAMILIES } from '../families/registry.js';
import { addGlobalFlags, GLOBAL_FLAGS, resolveGlobals, type GlobalOptions } from './globals.js';
import { checkOperandCount, useCobraErrors } from './help/cobraErrors.js';
import { usageString, useCobraHelp } from './help/cobraHelp.js';
import { normalizeArgs } from './kit/argv.js';
import { addCommand, addCommandStub, type RunSession } from './kit/command.js';
import { commandLoaders, completionSources, type CommandLoader, type FamilyDeclaration } from './kit/family.js';
import { processIo, type CliIo } from './kit/io.js';
import { ignoreNamespaceEnv, readsNamespaceEnv } from './kit/namespaceEnv.js';
import { terminalText } from './output/sanitize.js';

/** Global flags that take a value, so the first positional argument can be found without parsing. */
const VALUE_FLAGS = new Set(GLOBAL_FLAGS.filter((f) => f.type !== 'bool').flatMap((f) => [`--${f.name}`, ...(f.short ? [`-${f.short}`] : [])]));

/** The first `count` positional arguments (a command, then its subcommand), without parsing. */
function leadingPositionals(args: readonly string[], count: number): string[] {
  const found: string[] = [];
  let takesValue = false;
  for (const [i, a] of args.entries()) {
    if (found.length === count) break;
    if (takesValue) {
      takesValue = false;
      continue;
    }
    if (a === '--') {
      found.push(...args.slice(i + 1, i + 1 + count - found.length));
      break;
    }
    if (a.startsWith('-')) {
      takesValue = VALUE_FLAGS.has(a);
      continue;
    }
    found.push(a);
  }
  return found;
}

interface Session extends RunSession {
  verbose: boolean;
  resolved?: GlobalOptions;
  /** Set while --verbose logs requests; cleared when the run ends. */
  stopLogging?: () => void;
}

function newSession(io: CliIo): Session {
  const session: Session = {
    io,
    exitCode: 0,
    verbose: false,
    globals: () => {
      if (!session.resolved) throw new Error('the global flags were read before they were resolved');
      return session.resolved;
    },
  };
  return session;
}

/**
 * cobra's `help [command]`: the help of the command the words name, on stdout. Words naming no
 * command at the top are an unknown help topic, answered (as cobra does) with the root's usage on
 * stderr, exit 0; below the top, the deepest command named is the topic.
 */
function addHelpCommand(program: Command, s: Session): void {
  program.helpCommand(false);
  program
    .command('help')
    .argument('[command...]')
    .summary('Help about any command')
    .description(`Help provides help for any command in the application.\nSimply type ${program.name()} help [path to command] for full details.`)
    .action((words: string[]) => {
      let topic = program;
      for (const w of words) {
        const sub = topic.commands.find((c) => c.name() === w || c.aliases().includes(w));
        if (!sub) break;
        topic = sub;
      }
      if (words.length > 0 && topic === program) {
        s.io.stderr.write(`Unknown help topic [${words.map((w) => `\`${w}\``).join(' ')}]\n${usageString(program)}`);
        return;
      }
      topic.outputHelp();
    });
}

/** The root command with its global flags, no subcommand yet. */
export function buildProgram(session: RunSession = newSession(processIo())): Command {
  const s = session as Session;
  const program = new Command('linkerd')
    .description('linkerd manages the Linkerd service mesh.')
    .showSuggestionAfterError(true)
    // cobra's argument rule, checked in preAction below (checkOperandCount).
    .allowExcessArguments(true)
    .exitOverride()
    .configureOutput({ writeOut: (t) => s.io.stdout.write(t), writeErr: (t) => s.io.stderr.write(t) });
  useCobraHelp(program);
  addGlobalFlags(program);
  // Bare `linkerd` is a request for help, as cobra answers a command with no Run: stdout, exit 0.
  program.action(() => {
    program.outputHelp();
  });
  addHelpCommand(program, s);
  // Like the real CLI's PersistentPreRunE: the globals are resolved (once) and the namespace
  // validated before any command runs.
  program.hook('preAction', async (_root, action) => {
    checkOperandCount(action);
    s.resolved = resolveGlobals(program, s.io.env, (verbose) => (s.verbose = verbose), readsNamespaceEnv(action));
    if (s.verbose) {
      const [{ observeRequests }, { requestLogLine }] = await Promise.all([import('../core/kube/requestLog.js'), import('./output/requestLog.js')]);
      observeRequests((r) => s.io.stderr.write(requestLogLine(r)));
      s.stopLogging = () => observeRequests(undefined);
    }
  });
  return program;
}

/**
 * Adds `loader`'s command under `parent`. Of its declared subcommands, only the `wanted` one is
 * loaded (every one when `wanted` is undefined); the others are listed from their declarations.
 */
async function addLoaded(parent: Command, loader: CommandLoader, session: RunSession, wanted?: string): Promise<void> {
  const { command } = await loader.load();
  const cmd = addCommand(
    parent,
    { ...command, name: loader.name, aliases: loader.aliases, summary: loader.summary, hidden: loader.hidden, deprecated: loader.deprecated },
    session,
  );
  if (loader.namespaceEnv === false) ignoreNamespaceEnv(cmd);
  for (const sub of loader.subcommands ?? []) {
    if (wanted === undefined || sub.name === wanted || sub.aliases?.includes(wanted)) await addLoaded(cmd, sub, session);
    else addCommandStub(cmd, sub);
  }
}

/** `loader` and every subcommand declared under it, at any depth. */
function withSubcommands(loader: CommandLoader): CommandLoader[] {
  return [loader, ...(loader.subcommands ?? []).flatMap(withSubcommands)];
}

/** The declared command `words[0]` names (by name or alias), and among its subcommands the one `words[1]` names. */
function findLoader(loaders: readonly CommandLoader[], word: string | undefined): CommandLoader | undefined {
  return word === undefined ? undefined : loaders.find((c) => c.name === word || c.aliases?.includes(word));
}

/**
 * The command modules a run of `args` imports before it parses them, as `dispatch` loads them:
 * the command named and, of its declared subcommands, the one named (with all below it); every
 * command for `help` and shell completion; none for a plugin or bare `linkerd`. The start-up
 * snapshot asks this to know whether it holds what a run needs (src/cli/snapshot/start.ts).
 */
export function loadersFor(args: readonly string[], families: readonly FamilyDeclaration[] = FAMILIES): CommandLoader[] {
  const commands = commandLoaders(families);
  if (args[0] === '__complete') return commands.flatMap(withSubcommands);
  const [wanted, wantedSub] = leadingPositionals(args, 2);
  if (wanted === 'help') return commands.flatMap(withSubcommands);
  const entry = findLoader(commands, wanted);
  if (!entry) return [];
  const sub = findLoader(entry.subcommands ?? [], wantedSub);
  return [entry, ...(sub ? withSubcommands(sub) : [])];
}

/** A program with every subcommand registered (help listings, shell completion, the reference). */
export async function loadAllCommands(session: RunSession = newSession(processIo()), families: readonly FamilyDeclaration[] = FAMILIES): Promise<Command> {
  const program = buildProgram(session);
  for (const c of commandLoaders(families)) await addLoaded(program, c, session);
  return program;
}

/**
 * Runs the CLI on `args` (without node and the script) with these streams; resolves to the exit
 * code. One command runs per invocation: only its module is imported; help lists the others
 * from their families' declarations (name and summary), without loading them.
 */
export async function runLinkerd(args: readonly string[], io: CliIo, families: readonly FamilyDeclaration[] = FAMILIES): Promise<number> {
  const session = newSession(io);
  try {
    return await dispatch([...args], session, families);
  } catch (e) {
    return await reportError(e, session.verbose, io);
  } finally {
    session.stopLogging?.();
  }
}

async function dispatch(args: string[], session: Session, families: readonly FamilyDeclaration[]): Promise<number> {
  const { io } = session;
  const commands = commandLoaders(families);
  if (args[0] === '__complete') {
    // What the completion scripts run on TAB: candidates for the words typed so far.
    // In-process (tests): the same sanitised answer, without the process-ending watchdog of main().
    const [{ complete }, { answerText }] = await Promise.all([import('./completion/complete.js'), import('./completion/answer.js')]);
    io.stdout.write(answerText(await complete(await loadAllCommands(session, families), args.slice(1), completionSources(families))));
    return 0;
  }
  const program = buildProgram(session);
  const [wanted, wantedSub] = leadingPositionals(args, 2);
  const entry = commands.find((c) => c.name === wanted || c.aliases?.includes(wanted ?? ''));
  for (const c of commands) {
    // `help <command>` shows that command's own help, which needs its module.
    if (wanted === 'help') await addLoaded(program, c, session);
    else if (c === entry) await addLoaded(program, c, session, wantedSub ?? '');
    else addCommandStub(program, c);
  }
  useCobraErrors(program, args);

  if (wanted && !entry && wanted !== 'help') {
    const { runPlugin } = await import('./plugin.js');
    return runPlugin(args, [...commands.map((c) => c.name), 'help'].sort(), io);
  }
  await program.parseAsync(normalizeArgs(program, args), { from: 'user' });
  return session.exitCode;
}

export async function main(argv: string[], io: CliIo = processIo()): Promise<void> {
  // `linkerd install | head` closes the pipe early: that is the reader's choice, not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
  if (argv[2] === '__complete') {
    // A TAB must never hang the shell: an answer not ready in time is no answer, and the process
    // ends (a FIFO kubeconfig can block the main thread in open(2), beyond any timer of ours).
    const [{ complete }, { answerWithin, ANSWER_DEADLINE_MS }] = await Promise.all([import('./completion/complete.js'), import('./completion/answer.js')]);
    const session = newSession(io);
    const commands = await loadAllCommands(session, FAMILIES);
    await answerWithin(ANSWER_DEADLINE_MS, () => complete(commands, argv.slice(3), completionSources(FAMILIES)));
    return;
  }
  process.exitCode = await runLinkerd(argv.slice(2), io);
}

/** The one error path: one line on stderr, a stack trace only with --verbose. */
export async function reportError(e: unknown, verbose: boolean, io: CliIo = processIo()): Promise<number> {
  if (e instanceof CommanderError) {
    // commander already printed its message (help and version exit 0): `--help` loads nothing more.
    return e.exitCode;
  }
  const err = (s: string) => io.stderr.write(s);
  // LINKERD_TS_STACK=raw keeps the positions in the built files (debugging the build itself).
  // A password in a URL (a kubeconfig server's, an -f URL's) is never printed, whoever wrote the message.
  const { redactUrlsIn } = await import('../core/net/redactedUrl.js');
  const stackOf = async (x: Error) => {
    const stack = redactUrlsIn(x.stack ?? String(x));
    return io.env.LINKERD_TS_STACK === 'raw' ? stack : (await import('./output/stackTrace.js')).sourceMappedStack(stack);
  };
  if (isUserError(e)) {
    // The real CLI's own texts (install's and inject's cluster pre-checks) print as they are.
    // Messages can carry an API server's text: printed without control characters, lines capped.
    if (e.verbatim) {
      err(terminalText(redactUrlsIn(e.message)));
      return e.exitCode;
    }
    err(`Error: ${terminalText(redactUrlsIn(e.message))}\n`);
    if (e.hint) err(`${terminalText(redactUrlsIn(e.hint))}\n`);
    if (verbose && e.stack) err(`${await stackOf(e)}\n`);
    return e.exitCode;
  }
  const x = e instanceof Error ? e : new Error(String(e));
  err(`Error: ${terminalText(redactUrlsIn(x.message))}\n`);
  if (verbose) err(`${await stackOf(x)}\n`);
  else err('This is a bug in linkerd-ts; run again with --verbose and report the output.\n');
  return 1;
}
