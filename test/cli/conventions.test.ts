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

/** Every command path below the root (`['identity', 'rotate']`), from the help listings. */
async function allCommandPaths(prefix: string[] = []): Promise<string[][]> {
  const help = (await runCli([...prefix, '--help'])).stdout;
  const section = help.split('Available Commands:\n')[1]?.split('\n\n')[0] ?? '';
  const names = section
    .split('\n')
    .map((l) => l.trim().split(/\s+/)[0] ?? '')
    .filter((c) => c !== '' && c !== 'help');
  const out: string[][] = [];
  for (const n of names) out.push([...prefix, n], ...(await allCommandPaths([...prefix, n])));
  return out;
}

/** Flag lines of a help text: `name → usage`. */
function flagUsagesOf(help: string): Array<{ flag: string; type: string; usage: string }> {
  return [...help.matchAll(/^ {2}(?:-\w, | {4})--([\w-]+)(?: (\w+))? {3,}(.*)$/gm)].map((m) => ({ flag: m[1] ?? '', type: m[2] ?? '', usage: m[3] ?? '' }));
}

/** The real CLI's own flag texts that start in lower case (multicluster gateways), kept as they are. */
const REAL_LOWERCASE = new Set(['multicluster gateways --cluster-name', 'multicluster gateways --output', 'multicluster gateways --wait']);

describe("cobra's help conventions on every command", () => {
  it('a group run bare prints its help on stdout and exits 0', async () => {
    for (const args of [['image'], ['identity', 'rotate'], ['diagnostics'], ['multicluster']]) {
      const r = await runCli(args);
      expect([r.code, r.stderr], args.join(' ')).toEqual([0, '']);
      expect(r.stdout, args.join(' ')).toBe((await runCli([...args, '--help'])).stdout);
      expect(r.stdout, args.join(' ')).not.toMatch(/^ {2}help /m);
    }
  });

  it("`help` with an unknown topic prints cobra's words and the root usage on stderr, exit 0", async () => {
    const r = await runCli(['help', 'bogus']);
    expect([r.code, r.stdout]).toEqual([0, '']);
    expect(r.stderr).toMatch(/^Unknown help topic \[`bogus`\]\nUsage:\n {2}linkerd \[command\]\n/);
    expect(r.stderr).toContain('\nFlags:\n');
    const deep = await runCli(['help', 'image', 'build']);
    expect([deep.code, deep.stdout]).toEqual([0, (await runCli(['image', 'build', '--help'])).stdout]);
  });

  it('Examples sit after Usage/Aliases and before the command list and flags; check and identity have the real ones', async () => {
    const paths = await allCommandPaths();
    expect(paths.map((p) => p.join(' '))).toEqual(expect.arrayContaining(['image build', 'identity rotate', 'identity create-issuer']));
    for (const p of paths) {
      const help = (await runCli([...p, '--help'])).stdout;
      const at = (h: string) => help.indexOf(`\n${h}:\n`);
      if (at('Examples') < 0) continue;
      expect(at('Examples'), p.join(' ')).toBeGreaterThan(at('Usage'));
      for (const later of ['Available Commands', 'Flags', 'Global Flags'])
        if (at(later) >= 0) expect(at('Examples'), `${p.join(' ')}: ${later}`).toBeLessThan(at(later));
    }
    expect((await runCli(['check', '--help'])).stdout).toContain('Examples:\n  # Check that the Linkerd control plane is up and running\n  linkerd check\n');
    expect((await runCli(['identity', '--help'])).stdout).toContain(
      'Examples:\n  # Get certificate from pod foo-bar in the default namespace.\n  linkerd identity foo-bar\n',
    );
    expect((await runCli(['image', 'build', '--help'])).stdout).toMatch(/\nExamples:\n[^]*\nFlags:\n/);
  });

  it('flag descriptions start with a capital, as the real ones do', async () => {
    const lower: string[] = [];
    for (const p of await allCommandPaths()) {
      for (const f of flagUsagesOf((await runCli([...p, '--help'])).stdout)) {
        if (/^[a-z]/.test(f.usage) && f.flag !== 'help' && !REAL_LOWERCASE.has(`${p.join(' ')} --${f.flag}`)) lower.push(`${p.join(' ')} --${f.flag}`);
      }
    }
    expect(lower).toEqual([]);
  });

  it('repeatable flags show as pflag types them: StringSlice `strings`, StringArray `stringArray`', async () => {
    const types = async (args: string[]) => Object.fromEntries(flagUsagesOf((await runCli([...args, '--help'])).stdout).map((f) => [f.flag, f.type]));
    expect(await types(['install'])).toMatchObject({
      'as-group': 'stringArray',
      set: 'stringArray',
      'set-string': 'stringArray',
      'set-file': 'stringArray',
      values: 'strings',
    });
    expect(await types(['image', 'build'])).toMatchObject({ arch: 'strings', packages: 'stringArray' });
  });

  it("a parent's own flags are not its subcommands' (identity's -n/-l), in help, completion and parsing", async () => {
    const help = (await runCli(['identity', 'create-issuer', '--help'])).stdout;
    expect(help).not.toMatch(/--namespace|--selector/);
    expect((await runCli(['__complete', 'identity', 'create-issuer', '--'])).stdout).not.toMatch(/--namespace|--selector/);
    const r = await runCli(['identity', 'create-issuer', '-n', 'x', '--trust-anchor-file', 'a', '--trust-anchor-key-file', 'b']);
    expect([r.code, r.stderr]).toEqual([1, "Error: unknown flag: --namespace\nRun 'linkerd identity create-issuer --help' for usage.\n"]);
  });

  it('missing required flags are listed together, in one line', async () => {
    const r = await runCli(['identity', 'create-issuer']);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      1,
      '',
      'Error: required flag(s) "trust-anchor-file", "trust-anchor-key-file" not set\nRun \'linkerd identity create-issuer --help\' for usage.\n',
    ]);
    expect((await runCli(['image', 'build'])).stderr).toMatch(/^Error: required flag\(s\) "output" not set\n/);
  });

  it('usage mistakes come before any cluster access: `linkerd identity` without a pod or a selector', async () => {
    const r = await runCli(['identity']);
    expect([r.code, r.stdout]).toEqual([1, '']);
    // An error returned from cobra's RunE: the line, then the command's usage block (root sets no SilenceUsage).
    expect(r.stderr).toMatch(/^Error: Provide the pod name argument or use the selector flag\nUsage:\n {2}linkerd identity \[flags\] \[pods\.\.\.\]\n/);
    expect(r.stderr).toContain('\nGlobal Flags:\n');
  });

  it('a missing operand found by the run (inject with no file) prints the usage block after the error, as cobra does for a RunE error', async () => {
    for (const cmd of ['inject', 'uninject']) {
      const r = await runCli([cmd]);
      expect([r.code, r.stdout]).toEqual([1, '']);
      expect(r.stderr.startsWith(`Error: please specify a kubernetes resource file\nUsage:\n  linkerd ${cmd} [flags] `)).toBe(true);
      expect(r.stderr).toContain('\nFlags:\n');
    }
  });
});

describe('--api-addr', () => {
  it('is ignored with a warning by the commands that do not use it, and says which do', async () => {
    const r = await runCli(['version', '--client', '--api-addr', '127.0.0.1:1']);
    expect([r.code, r.stderr]).toEqual([0, 'Warning: --api-addr is ignored by "linkerd version"\n']);
    expect((await runCli(['version', '--help'])).stdout).toContain('(mostly for testing; a command that does not use it says so)');
    const used = await runCli(['diagnostics', 'endpoints', 'web.shop.svc.cluster.local:80', '--api-addr', '127.0.0.1:1']);
    expect(used.stderr).not.toContain('--api-addr is ignored');
  });
});
