import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { expectGoldenFile } from '../support/golden.js';

/*
 * Help, errors and flag values as cobra/pflag users expect them. Each transcript is the real
 * binary's output (golden/<name>.txt, rewritten with UPDATE_GOLDEN=1 after reading the diff).
 */

const golden = (name: string) => fileURLToPath(new URL(`./golden/${name}.txt`, import.meta.url));
const DEPLOYMENT = 'fixtures/manifests/shop.yaml';

function transcript(args: string[], r: CliResult): string {
  return `$ ${['linkerd', ...args].join(' ')}\n[exit ${r.code}]\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;
}

const TRANSCRIPTS: Record<string, string[]> = {
  bare: [],
  'install-help': ['install', '--help'],
  'inject-help': ['inject', '--help'],
  'check-help': ['check', '--help'],
  'version-help': ['version', '--help'],
  'unknown-command': ['instal'],
  'unknown-command-prefix': ['in'],
  'unknown-command-no-suggestion': ['frobnicate'],
  'install-inbound-port': ['install', '--ignore-cluster', '--inbound-port', '70000'],
  'install-cpu-request': ['install', '--ignore-cluster', '--proxy-cpu-request', 'lots'],
  'inject-inbound-port': ['inject', '--ignore-cluster', '--inbound-port', '70000', DEPLOYMENT],
};

describe('transcripts', () => {
  for (const [name, args] of Object.entries(TRANSCRIPTS)) {
    it(`linkerd ${args.join(' ')}`, async () => {
      expectGoldenFile(golden(name), transcript(args, await runCli(args)));
    });
  }
});

/** Every command the root help lists (so commands registered later are covered too). */
async function listedCommands(): Promise<string[]> {
  const help = (await runCli(['--help'])).stdout;
  const section = help.split('Available Commands:\n')[1]?.split('\n\n')[0] ?? '';
  return section
    .split('\n')
    .map((l) => l.trim().split(/\s+/)[0] ?? '')
    .filter((c) => c !== '' && c !== 'help');
}

describe('help', () => {
  it('bare linkerd prints the help on stdout and exits 0', async () => {
    const r = await runCli([]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^linkerd manages the Linkerd service mesh\.\n\nUsage:\n {2}linkerd \[command\]\n/);
    expect(r.stdout).toBe((await runCli(['--help'])).stdout);
    expect(r.stdout).toBe((await runCli(['help'])).stdout);
  });

  it('every command: cobra sections in order, each default once and Go-style', async () => {
    const commands = await listedCommands();
    expect(commands).toEqual(expect.arrayContaining(['check', 'completion', 'inject', 'install', 'uninject', 'version']));
    for (const c of commands) {
      const help = (await runCli([c, '--help'])).stdout;
      const order = ['Usage:', 'Aliases:', 'Examples:', 'Flags:', 'Global Flags:'].map((h) => help.indexOf(`\n${h}\n`)).filter((i) => i >= 0);
      expect(order, c).toEqual([...order].sort((a, b) => a - b));
      expect(help, c).toContain('\nFlags:\n');
      expect(help, c).toContain('\nGlobal Flags:\n');
      expect(help, c).not.toMatch(/\(default: (""|\[\]|false)\)/);
      for (const line of help.split('\n')) expect((line.match(/\(default /g) ?? []).length, `${c}: ${line}`).toBeLessThanOrEqual(1);
      expect(help, c).not.toMatch(/--no-/);
    }
  });

  it("hides deprecated flags, which still work with pflag's warning", async () => {
    const help = (await runCli(['install', '--help'])).stdout;
    expect(help).not.toMatch(/--proxy-cpu |--proxy-memory /);
    const r = await runCli(['install', '--ignore-cluster', '--proxy-cpu', '100m']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Flag --proxy-cpu has been deprecated, use --proxy-cpu-request instead');
  });

  it("--native-sidecar's help says what it does with and without --manual", async () => {
    const line = (await runCli(['inject', '--help'])).stdout.split('\n').find((l) => l.includes('--native-sidecar')) ?? '';
    expect(line).toContain('initContainers');
    expect(line).toContain('--native-sidecar=false');
    expect(line).toContain('--manual');
  });

  it('offers in completion exactly the flags help lists, for every command', async () => {
    for (const c of await listedCommands()) {
      const offered = (await runCli(['__complete', c, '--'])).stdout.split('\n').filter((f) => f !== '');
      const help = (await runCli([c, '--help'])).stdout;
      const listed = [...help.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)|^ {6}(--[\w-]+)/gm)].map((m) => m[1] ?? m[2] ?? '');
      expect(offered.sort(), c).toEqual([...new Set(listed)].filter((f) => f !== '--help').sort());
    }
  });
});

describe('unknown commands', () => {
  it('suggests as cobra does: edit distance 2 or a prefix, then points at --help', async () => {
    const r = await runCli(['versoin']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Error: unknown command "versoin" for "linkerd"\n\nDid you mean this?\n\tversion\n\nRun \'linkerd --help\' for usage.\n');
  });
});

describe('flag values', () => {
  it('a schema error caused by a flag names the flag, not a values path', async () => {
    const r = await runCli(['install', '--ignore-cluster', '--admin-port', '99999']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Error: invalid argument "99999" for "--admin-port" flag: must be <= 65535 (got 99999)\n');
  });

  it('--set still names --set', async () => {
    const r = await runCli(['install', '--ignore-cluster', '--set', 'proxy.ports.inbound=70000']);
    expect(r.stderr).toBe('Error: --set: proxy.ports.inbound: must be <= 65535 (got 70000)\n');
  });
});
