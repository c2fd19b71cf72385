import { unknownCommandText } from './help/unknownCommand.js';
import { spawnSync } from 'node:child_process';

/**
 * An extension name that can only be looked up on PATH: a name with a path separator (`/../evil`)
 * would make `linkerd-<name>` a relative path and run a file outside PATH.
 */
const PLAIN_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/**
 * Unknown subcommands run `linkerd-<name>` from PATH with the remaining arguments,
 * as the real CLI's extension mechanism does; without one, cobra's unknown-command error.
 */
export function runPlugin(args: string[], commandNames: readonly string[]): number {
  const [name = '', ...rest] = args;
  if (name.startsWith('-')) {
    process.stderr.write('Cannot accept flags before Linkerd extension name\n');
    return 1;
  }
  const unknown = () => {
    process.stderr.write(unknownCommandText(name, 'linkerd', commandNames));
    return 1;
  };
  if (!PLAIN_NAME.test(name)) return unknown();
  const res = spawnSync(`linkerd-${name}`, rest, { stdio: 'inherit' });
  if (res.error) return unknown();
  if (res.status !== 0) return 1;
  return 0;
}
