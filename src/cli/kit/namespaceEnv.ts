import type { Command } from 'commander';

/*
 * The real CLI's `-L/--linkerd-namespace` reads `$LINKERD_NAMESPACE` only as the root's flag: the
 * extensions that declare their own copy (`viz`, `multicluster`) take `linkerd` as the default
 * whatever the environment says, and their help does not mention the variable.
 */

const ownNamespaceFlag = new WeakSet<Command>();

/** `cmd` (and every command below it) has its own `-L`, which `$LINKERD_NAMESPACE` does not set. */
export function ignoreNamespaceEnv(cmd: Command): void {
  ownNamespaceFlag.add(cmd);
}

/** Whether `$LINKERD_NAMESPACE` stands in for an omitted `-L` when `cmd` runs. */
export function readsNamespaceEnv(cmd: Command): boolean {
  for (let c: Command | null = cmd; c; c = c.parent) if (ownNamespaceFlag.has(c)) return false;
  return true;
}

/** The words `-L`'s help ends with where the variable applies. */
export const NAMESPACE_ENV_NOTE = ' ($LINKERD_NAMESPACE)';
