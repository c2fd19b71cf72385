import type { Command } from 'commander';

/** `linkerd identity rotate`, as cobra's CommandPath names a command. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}
