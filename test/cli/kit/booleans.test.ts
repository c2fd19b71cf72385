import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { loadAllCommands } from '../../../src/cli/main.js';
import { normalizeArgs } from '../../../src/cli/kit/argv.js';
import type { RunSession } from '../../../src/cli/kit/command.js';
import { arityOf, commandPath } from '../../../src/cli/help/cobraErrors.js';
import { bufferIo } from '../../support/cli.js';

/*
 * Every boolean flag of every registered command (its own and the ones it inherits) parses as
 * pflag's do: bare, `=true`, `=false`, and a bad word refused in pflag's words.
 */

function session(): RunSession {
  return {
    io: bufferIo().io,
    exitCode: 0,
    globals: () => {
      throw new Error('no command runs in this test');
    },
  };
}

function walk(cmd: Command): Command[] {
  return [cmd, ...cmd.commands.flatMap(walk)];
}

/** The command at `path` of a fresh program whose actions do nothing. */
async function programFor(): Promise<Command> {
  const root = await loadAllCommands(session());
  for (const c of walk(root)) c.action(() => undefined);
  return root;
}

function attribute(o: Option): string {
  return o.attributeName();
}

interface Case {
  path: string[];
  operands: string[];
  option: Option;
  /** The command that declares the flag: itself, or the ancestor it inherits it from. */
  owner: string[];
}

async function cases(): Promise<Case[]> {
  const out: Case[] = [];
  for (const cmd of walk(await programFor())) {
    const path = commandPath(cmd).split(' ').slice(1);
    if (path[0] === 'help') continue;
    // As many operands as the command needs: its required arguments, or its declared minimum.
    const arity = arityOf(cmd);
    const needed = Math.max(cmd.registeredArguments.filter((a) => a.required).length, arity === undefined || arity === 'any' ? 0 : arity.min);
    const operands = Array.from({ length: needed }, () => 'x');
    for (let owner: Command | null = cmd; owner; owner = owner.parent) {
      for (const option of owner.options) {
        if (option.isBoolean() && !option.negate && option.long !== '--help')
          out.push({ path, operands, option, owner: commandPath(owner).split(' ').slice(1) });
      }
    }
  }
  return out;
}

async function parse(c: Case, flag: string[]): Promise<unknown> {
  const root = await programFor();
  await root.parseAsync(normalizeArgs(root, [...c.path, ...c.operands, ...flag]), { from: 'user' });
  let owner = root;
  for (const name of c.owner) owner = owner.commands.find((x) => x.name() === name) ?? owner;
  return owner.opts()[attribute(c.option)];
}

const all = await cases();

describe('every boolean flag of every command', () => {
  it('is found (the walk covers the commands the issue names)', () => {
    const names = new Set(all.map((c) => `${c.path.join(' ')} ${c.option.long ?? ''}`));
    for (const n of ['install --crds', 'check --pre', 'version --client', 'version --verbose', 'inject --manual', 'uninstall --force', 'install --ha']) {
      expect(names, n).toContain(n);
    }
  });

  it.each(all.map((c) => [`${['linkerd', ...c.path].join(' ')} ${c.option.long ?? ''}`, c] as const))(
    '%s: bare, =true, =false, and a bad word',
    async (_, c) => {
      const long = c.option.long ?? '';
      expect(await parse(c, [long])).toBe(true);
      expect(await parse(c, [`${long}=true`])).toBe(true);
      expect(await parse(c, [`${long}=false`])).toBe(false);
      expect(await parse(c, [`${long}=true`, `${long}=0`])).toBe(false);
      const name = c.option.short ? `${c.option.short}, ${long}` : long;
      await expect(parse(c, [`${long}=maybe`])).rejects.toThrow(
        `invalid argument "maybe" for "${name}" flag: strconv.ParseBool: parsing "maybe": invalid syntax`,
      );
    },
  );
});
