import type { Command } from 'commander';

/*
 * A deprecated command prints its deprecation to stderr whenever cobra dispatches to it (its help
 * included), so its `--help` is no constant output. The mark is a registered symbol on the command
 * object: the build reads it from the bundle's commands, another copy of this module.
 */
const DEPRECATED = Symbol.for('linkerd-ts.command.deprecated');

/** Marks `cmd` as deprecated. */
export function markDeprecated(cmd: Command): void {
  (cmd as unknown as Record<symbol, boolean>)[DEPRECATED] = true;
}

/** Whether `cmd` was declared deprecated. */
export function isDeprecated(cmd: Command): boolean {
  return (cmd as unknown as Record<symbol, boolean | undefined>)[DEPRECATED] === true;
}
