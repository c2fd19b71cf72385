import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { unknownCommandText } from './help/unknownCommand.js';
import type { CliIo } from './kit/io.js';

/**
 * An extension name that can only be looked up on PATH: a name with a path separator (`/../evil`)
 * would make `linkerd-<name>` a relative path and run a file outside PATH.
 */
const PLAIN_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/**
 * Unknown subcommands run `linkerd-<name>` from PATH with the remaining arguments,
 * as the real CLI's extension mechanism does; without one, cobra's unknown-command error.
 * Resolves to the extension's own exit code (the real CLI turns every failure into 1).
 */
export function runPlugin(args: string[], commandNames: readonly string[], io: CliIo): number {
  const [name = '', ...rest] = args;
  if (name.startsWith('-')) {
    io.stderr.write('Cannot accept flags before Linkerd extension name\n');
    return 1;
  }
  const unknown = () => {
    io.stderr.write(unknownCommandText(name, 'linkerd', commandNames));
    return 1;
  };
  if (!PLAIN_NAME.test(name)) return unknown();
  // The plugin gets the terminal itself; streams of an in-process run receive its output instead.
  const own = io.stdout === process.stdout && io.stderr === process.stderr && io.stdin === process.stdin;
  const res = spawnSync(`linkerd-${name}`, rest, { stdio: own ? 'inherit' : 'pipe', env: io.env, maxBuffer: 64 * 1024 * 1024 });
  if (res.error) return unknown();
  if (!own) {
    io.stdout.write(res.stdout);
    io.stderr.write(res.stderr);
  }
  return exitCodeOf(res.status, res.signal);
}

/**
 * The extension's exit code, passed through (scripts tell its failures apart); one ended by a
 * signal exits as a shell reports it, 128 + the signal's number.
 */
function exitCodeOf(status: number | null, signal: NodeJS.Signals | null): number {
  if (status !== null) return status;
  return signal === null ? 1 : 128 + os.constants.signals[signal];
}
