import { describe, expect, it } from 'vitest';
import type { CommandBody } from '../../../src/cli/kit/command.js';
import { completionSources, type CommandLoader, type FamilyDeclaration } from '../../../src/cli/kit/family.js';
import { runLinkerd } from '../../../src/cli/main.js';
import { core } from '../../../src/families/core/index.js';
import { FAMILIES } from '../../../src/families/registry.js';
import { bufferIo } from '../../support/cli.js';

/*
 * The open registry: a family declares its commands (name, summary, loader) and completion
 * sources; help lists every family's commands without loading one, and a run loads only the
 * command it runs.
 */

const hello: CommandBody = {
  flags: [
    { name: 'loud', type: 'bool', default: false, help: 'Shout' },
    { name: 'name', short: 'n', type: 'string', default: 'world', help: 'Who to greet', completion: 'greetings' },
  ],
  examples: '  linkerd hello --name mesh',
  run: async ({ flags, io }) => {
    const text = `hello ${String(flags.name)}`;
    io.stdout.write(`${flags.loud === true ? text.toUpperCase() : text}\n`);
    return Promise.resolve(flags.loud === true ? 3 : 0);
  },
};

/** Core and a demo family, each loader counting its loads. */
function spied(): { families: FamilyDeclaration[]; loaded: string[] } {
  const loaded: string[] = [];
  const spy = (c: CommandLoader): CommandLoader => ({
    ...c,
    load: () => {
      loaded.push(c.name);
      return c.load();
    },
  });
  const demo: FamilyDeclaration = {
    name: 'demo',
    commands: [{ name: 'hello', summary: 'Say hello to the mesh', load: () => Promise.resolve({ command: hello }) }],
    completions: { greetings: () => Promise.resolve(['mesh', 'meshes', 'world']) },
  };
  return { families: [core, demo].map((f) => ({ ...f, commands: f.commands.map(spy) })), loaded };
}

async function run(args: string[], families: FamilyDeclaration[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const b = bufferIo();
  const code = await runLinkerd(args, b.io, families);
  return { code, stdout: b.stdout(), stderr: b.stderr() };
}

describe('the family registry', () => {
  it('lists the core family first', () => {
    expect(FAMILIES[0]?.name).toBe('core');
  });

  it('help lists every family’s commands with their summaries, loading none of them', async () => {
    const { families, loaded } = spied();
    for (const args of [[], ['--help'], ['-L', 'linkerd']]) {
      const r = await run(args, families);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('  hello       Say hello to the mesh\n');
      expect(r.stdout).toContain('  install     Output Kubernetes configs to install Linkerd\n');
    }
    expect(loaded).toEqual([]);
  });

  it('a run loads only the command it runs', async () => {
    const { families, loaded } = spied();
    expect((await run(['version', '--client'], families)).stdout).toBe('Client version: edge-26.9.1\n');
    expect(loaded).toEqual(['version']);
  });

  it('runs a family’s command with its flags, booleans taking =true, and its exit code', async () => {
    const { families } = spied();
    expect(await run(['hello', '-n', 'mesh'], families)).toEqual({ code: 0, stdout: 'hello mesh\n', stderr: '' });
    expect(await run(['hello', '--loud=true'], families)).toEqual({ code: 3, stdout: 'HELLO WORLD\n', stderr: '' });
    expect((await run(['hello', '--help'], families)).stdout).toContain('Examples:\n  linkerd hello --name mesh\n');
  });

  it('completes a flag from the completion source its family declares', async () => {
    const { families } = spied();
    expect((await run(['__complete', 'hello', '--name', 'me'], families)).stdout).toBe('mesh\nmeshes\n');
    expect((await run(['__complete', 'he'], families)).stdout).toBe('hello\nhelp\n');
  });

  it('suggests a family’s command for a typo, as cobra does', async () => {
    const { families } = spied();
    const r = await run(['helo'], families);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Did you mean this?\n\thello\n');
  });

  it('refuses two families declaring the same completion source', () => {
    const a: FamilyDeclaration = { name: 'a', commands: [], completions: { x: () => Promise.resolve([]) } };
    expect(() => completionSources([a, { ...a, name: 'b' }])).toThrow('completion source x of family b is already declared');
  });

  it('lists a command’s declared subcommands without loading them, and loads only the one that runs', async () => {
    const loaded: string[] = [];
    const sub = (name: string): CommandLoader => ({
      name,
      summary: `The ${name} subcommand`,
      load: () => {
        loaded.push(name);
        return Promise.resolve({
          command: {
            run: ({ io }) => {
              io.stdout.write(`${name} ran\n`);
              return Promise.resolve();
            },
          },
        });
      },
    });
    const ext: FamilyDeclaration = {
      name: 'ext',
      commands: [
        {
          name: 'ext',
          summary: 'An extension',
          load: () =>
            Promise.resolve({
              command: {
                run: ({ command }) => {
                  command.outputHelp();
                  return Promise.resolve();
                },
              },
            }),
          subcommands: [sub('install'), sub('check')],
        },
      ],
    };
    const families = [core, ext];
    for (const args of [['ext'], ['ext', '--help'], ['-L', 'linkerd', 'ext']]) {
      const r = await run(args, families);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Available Commands:\n  check       The check subcommand\n  install     The install subcommand\n');
    }
    expect(loaded).toEqual([]);
    expect(await run(['ext', 'install'], families)).toEqual({ code: 0, stdout: 'install ran\n', stderr: '' });
    expect(loaded).toEqual(['install']);
  });
});
