import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { usesApiAddr } from '../../src/cli/kit/command.js';
import { loadAllCommands } from '../../src/cli/main.js';
import { REPO_ROOT } from '../support/cli.js';

/*
 * `--api-addr` is read by the commands declared with `apiAddr: true` (the others warn that they
 * ignore it); the global-flags table of docs/commands/README.md names each of them, so it cannot
 * say "only diagnostics endpoints and check" while viz stat reads it too.
 */

function users(cmd: Command, prefix: string[] = []): string[] {
  return cmd.commands.flatMap((c) => {
    const p = [...prefix, c.name()];
    return [...(usesApiAddr(c) ? [p.join(' ')] : []), ...users(c, p)];
  });
}

describe('--api-addr in docs/commands/README.md', () => {
  it('names every command that reads it', async () => {
    const found = users(await loadAllCommands());
    expect(found).toEqual(
      expect.arrayContaining([
        'check',
        'viz stat',
        'viz edges',
        'viz routes',
        'viz authz',
        'viz check',
        'diagnostics endpoints',
        'diagnostics policy',
        'diagnostics profile',
      ]),
    );
    const readme = readFileSync(path.join(REPO_ROOT, 'docs', 'commands', 'README.md'), 'utf8');
    const row = readme.split('\n').find((l) => l.startsWith('| `--api-addr`')) ?? '';
    for (const name of found) expect(row, name).toContain(`\`${name}\``);
    expect(row).not.toMatch(/only diagnostics endpoints/);
  });
});
