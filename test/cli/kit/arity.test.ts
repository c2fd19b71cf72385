import { describe, expect, it } from 'vitest';
import type { CommandBody } from '../../../src/cli/kit/command.js';
import type { FamilyDeclaration } from '../../../src/cli/kit/family.js';
import { runLinkerd } from '../../../src/cli/main.js';
import { core } from '../../../src/families/core/index.js';
import { bufferIo, runCli } from '../../support/cli.js';

/*
 * cobra's Args rules the declared operands alone cannot say: none at all (a command without Args
 * accepts extra operands and ignores them) and RangeArgs(min, max) with its own wording.
 */

const echo =
  (name: string): CommandBody['run'] =>
  async ({ args, io }) => {
    io.stdout.write(`${name} ${JSON.stringify(args)}\n`);
    return Promise.resolve();
  };

const ranged: CommandBody = {
  args: [
    { name: 'RESOURCE', help: 'a resource type', required: true },
    { name: 'NAME', help: 'a name' },
  ],
  arity: { min: 1, max: 2 },
  run: echo('ranged'),
};
const open: CommandBody = { arity: 'any', run: echo('open') };
const atLeast: CommandBody = { args: [{ name: 'RESOURCES', help: 'resources', variadic: true }], arity: { min: 1 }, run: echo('atLeast') };

const demo: FamilyDeclaration = {
  name: 'demo',
  commands: [
    { name: 'ranged', summary: 'Takes one or two operands', load: () => Promise.resolve({ command: ranged }) },
    { name: 'open', summary: 'Takes anything', load: () => Promise.resolve({ command: open }) },
    { name: 'at-least', summary: 'Takes one or more', load: () => Promise.resolve({ command: atLeast }) },
  ],
};

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const b = bufferIo();
  const code = await runLinkerd(args, b.io, [core, demo]).catch(() => 1);
  return { code, stdout: b.stdout(), stderr: b.stderr() };
}

describe('arity: { min } (cobra.MinimumNArgs)', () => {
  it('is checked before the globals, as cobra checks Args before PersistentPreRunE: a bad -L comes second', async () => {
    const r = await run(['at-least', '-L', 'BAD!']);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe('Error: requires at least 1 arg(s), only received 0');
    expect((await run(['at-least', 'a', 'b', 'c'])).stdout).toBe('atLeast [["a","b","c"]]\n');
  });
});

describe('arity: { min, max } (cobra.RangeArgs)', () => {
  it('says "accepts between 1 and 2 arg(s)" when too few or too many, then the usage', async () => {
    for (const [args, received] of [
      [[], 0],
      [['a', 'b', 'c'], 3],
    ] as const) {
      const r = await run(['ranged', ...args]);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')[0]).toBe(`Error: accepts between 1 and 2 arg(s), received ${received}`);
      expect(r.stderr).toContain('Usage:\n  linkerd ranged [flags] RESOURCE [NAME]\n');
    }
  });

  it('runs with one or two', async () => {
    expect((await run(['ranged', 'deploy'])).stdout).toBe('ranged ["deploy",null]\n');
    expect((await run(['ranged', 'deploy', 'web'])).stdout).toBe('ranged ["deploy","web"]\n');
  });
});

describe("arity: 'any' (no cobra Args)", () => {
  it('accepts extra operands and ignores them', async () => {
    const r = await run(['open', 'extra', 'more']);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, 'open []\n', '']);
  });

  it('install-cni renders with an extra operand, as the real command (no Args)', async () => {
    const r = await runCli(['install-cni', 'extra']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain('kind: DaemonSet');
  });
});
