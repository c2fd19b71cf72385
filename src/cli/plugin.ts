import { spawnSync } from 'node:child_process';

/**
 * Unknown subcommands run `linkerd-<name>` from PATH with the remaining arguments,
 * as the real CLI's extension mechanism does.
 */
export function runPlugin(args: string[]): number {
  const [name = '', ...rest] = args;
  if (name.startsWith('-')) {
    process.stderr.write('Cannot accept flags before Linkerd extension name\n');
    return 1;
  }
  const res = spawnSync(`linkerd-${name}`, rest, { stdio: 'inherit' });
  if (res.error) {
    process.stderr.write(`Error: unknown command "${name}" for "linkerd"\nRun 'linkerd --help' for usage.\n`);
    return 1;
  }
  if (res.status !== 0) return 1;
  return 0;
}
