import { Command, CommanderError } from 'commander';
import { isUserError } from '../core/errors.js';
import { addGlobalFlags, resolveGlobals } from './globals.js';
import { rejectExcessArguments, useCobraErrors } from './help/cobraErrors.js';
import { useCobraHelp } from './help/cobraHelp.js';
import { terminalText } from './output/sanitize.js';

/**
 * A subcommand is registered only when it runs (or when help lists them all), so start-up
 * loads one command module and none of the heavy libraries the others need.
 */
interface CommandEntry {
  name: string;
  aliases?: string[];
  load: () => Promise<{ register: (program: Command) => Command }>;
}

const COMMANDS: CommandEntry[] = [
  { name: 'analyze', load: () => import('../families/analyze/command.js') },
  { name: 'check', load: () => import('./commands/check.js') },
  { name: 'completion', load: () => import('./commands/completion.js') },
  { name: 'image', load: () => import('./commands/image.js') },
  { name: 'inject', load: () => import('./commands/inject.js') },
  { name: 'identity', load: () => import('./commands/identity.js') },
  { name: 'install', load: () => import('./commands/install.js') },
  { name: 'prune', load: () => import('./commands/prune.js') },
  { name: 'uninject', load: () => import('./commands/uninject.js') },
  { name: 'uninstall', load: () => import('./commands/uninstall.js') },
  { name: 'upgrade', load: () => import('./commands/upgrade.js') },
  { name: 'version', load: () => import('./commands/version.js') },
];

/** Global flags that take a value, so the first positional argument can be found without parsing. */
const VALUE_FLAGS = new Set(['-L', '--linkerd-namespace', '--cni-namespace', '--kubeconfig', '--context', '--as', '--as-group', '--api-addr']);

function firstPositional(args: string[]): string | undefined {
  let takesValue = false;
  for (const [i, a] of args.entries()) {
    if (takesValue) {
      takesValue = false;
      continue;
    }
    if (a === '--') return args[i + 1];
    if (a.startsWith('-')) {
      takesValue = VALUE_FLAGS.has(a);
      continue;
    }
    return a;
  }
  return undefined;
}

/** `--verbose` (or `--verbose=true`) among the flags, before any `--`. */
function isVerbose(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '--verbose' || a === '--verbose=true');
}

export function buildProgram(): Command {
  const program = new Command('linkerd')
    .description('linkerd manages the Linkerd service mesh.')
    .showSuggestionAfterError(true)
    // cobra's argument rule, checked in preAction below (rejectExcessArguments).
    .allowExcessArguments(true)
    .exitOverride();
  useCobraHelp(program);
  addGlobalFlags(program);
  // Bare `linkerd` is a request for help, as cobra answers a command with no Run: stdout, exit 0.
  program.action(() => {
    program.outputHelp();
  });
  // An action on the root turns commander's implicit `help [command]` off; cobra has it.
  program.helpCommand(true);
  // Like the real CLI's PersistentPreRunE: the namespace is validated before any command runs.
  program.hook('preAction', (_root, action) => {
    rejectExcessArguments(action);
    resolveGlobals(program);
  });
  return program;
}

/** A program with every subcommand registered (help listings, shell completion). */
export async function loadAllCommands(): Promise<Command> {
  const program = buildProgram();
  for (const c of COMMANDS) (await c.load()).register(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  // `linkerd install | head` closes the pipe early: that is the reader's choice, not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
  const args = argv.slice(2);
  if (args[0] === '__complete') {
    // What the completion scripts run on TAB: candidates for the words typed so far.
    const [{ complete }, { completionSources }, { answerWithin, ANSWER_DEADLINE_MS }] = await Promise.all([
      import('./completion/complete.js'),
      import('./completion/sources.js'),
      import('./completion/answer.js'),
    ]);
    const commands = await loadAllCommands();
    await answerWithin(ANSWER_DEADLINE_MS, () => complete(commands, args.slice(1), completionSources));
    return;
  }
  const verbose = isVerbose(args);
  if (verbose) {
    const [{ observeRequests }, { requestLogLine }] = await Promise.all([import('../core/kube/requestLog.js'), import('./output/requestLog.js')]);
    observeRequests((r) => process.stderr.write(requestLogLine(r)));
  }
  const program = buildProgram();
  const wanted = firstPositional(args);
  const entry = COMMANDS.find((c) => c.name === wanted || c.aliases?.includes(wanted ?? ''));
  const toLoad = entry ? [entry] : COMMANDS;
  for (const c of toLoad) (await c.load()).register(program);
  useCobraErrors(program, args);

  if (wanted && !entry && !['help'].includes(wanted)) {
    const { runPlugin } = await import('./plugin.js');
    process.exitCode = runPlugin(args, [...COMMANDS.map((c) => c.name), 'help'].sort());
    return;
  }

  try {
    await program.parseAsync(argv);
  } catch (e) {
    process.exitCode = await reportError(e, verbose);
  }
}

/** The one error path: one line on stderr, a stack trace only with --verbose. */
export async function reportError(e: unknown, verbose: boolean): Promise<number> {
  // LINKERD_TS_STACK=raw keeps the positions in the built files (debugging the build itself).
  // A password in a URL (a kubeconfig server's, an -f URL's) is never printed, whoever wrote the message.
  const { redactUrlsIn } = await import('../core/net/redactedUrl.js');
  const stackOf = async (err: Error) => {
    const stack = redactUrlsIn(err.stack ?? String(err));
    return process.env.LINKERD_TS_STACK === 'raw' ? stack : (await import('./output/stackTrace.js')).sourceMappedStack(stack);
  };
  if (e instanceof CommanderError) {
    // commander already printed its message (help and version exit 0)
    return e.exitCode;
  }
  if (isUserError(e)) {
    // The real CLI's own texts (install's and inject's cluster pre-checks) print as they are.
    // Messages can carry an API server's text: printed without control characters, lines capped.
    if (e.verbatim) {
      process.stderr.write(terminalText(redactUrlsIn(e.message)));
      return e.exitCode;
    }
    process.stderr.write(`Error: ${terminalText(redactUrlsIn(e.message))}\n`);
    if (e.hint) process.stderr.write(`${terminalText(redactUrlsIn(e.hint))}\n`);
    if (verbose && e.stack) process.stderr.write(`${await stackOf(e)}\n`);
    return e.exitCode;
  }
  const err = e instanceof Error ? e : new Error(String(e));
  process.stderr.write(`Error: ${terminalText(redactUrlsIn(err.message))}\n`);
  if (verbose) process.stderr.write(`${await stackOf(err)}\n`);
  else process.stderr.write('This is a bug in linkerd-ts; run again with --verbose and report the output.\n');
  return 1;
}
