import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli } from '../support/cli.js';

describe('linkerd (root command)', () => {
  it('lists every subcommand in its help', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['check', 'completion', 'inject', 'install', 'uninject', 'version']) expect(r.stdout).toContain(c);
  });

  it('rejects an invalid control-plane namespace with one line', async () => {
    const r = await runCli(['-L', 'bad_ns!', 'version', '--client']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('Error: bad_ns! is not a valid namespace\n');
    expect(r.stdout).toBe('');
  });

  it('takes the namespace from LINKERD_NAMESPACE only when -L is left at its default', async () => {
    const bad = await runCli(['version', '--client'], { env: { LINKERD_NAMESPACE: 'no_good' } });
    expect(bad.stderr).toContain('no_good is not a valid namespace');
    const flagWins = await runCli(['-L', 'linkerd', 'version', '--client'], { env: { LINKERD_NAMESPACE: 'no_good' } });
    expect(flagWins.code).toBe(0);
  });

  it('under viz and multicluster, -L is their own: LINKERD_NAMESPACE neither sets it nor shows in their help', async () => {
    const env = { LINKERD_NAMESPACE: 'envns' };
    const viz = await runCli(['viz', 'install', '--ignore-cluster'], { env });
    expect([viz.code, viz.stderr]).toEqual([0, '']);
    expect(viz.stdout).toContain("'-controller-namespace=linkerd'");
    expect(viz.stdout).not.toContain('envns');
    const flag = await runCli(['viz', 'install', '--ignore-cluster', '-L', 'flagns'], { env });
    expect(flag.stdout.split('flagns').length - 1).toBe(10);
    const mc = await runCli(['mc', 'install', '--ignore-cluster'], { env });
    expect(mc.code).toBe(0);
    expect(mc.stdout).not.toContain('envns');
    // The variable is not even validated there, as nothing reads it.
    expect((await runCli(['viz', 'install', '--ignore-cluster'], { env: { LINKERD_NAMESPACE: 'no_good' } })).code).toBe(0);
    // The core commands still read it.
    expect((await runCli(['install', '--ignore-cluster'], { env })).stdout).toContain('\n  namespace: envns\n');
    const own = '  -L, --linkerd-namespace string   Namespace in which Linkerd is installed (default "linkerd")\n';
    for (const args of [
      ['viz', '--help'],
      ['viz', 'install', '--help'],
      ['stat', '--help'],
      ['mc', '--help'],
      ['multicluster', 'link-gen', '--help'],
    ]) {
      const help = await runCli(args, { env });
      expect(help.stdout, args.join(' ')).toContain(own);
      expect(help.stdout, args.join(' ')).not.toContain('$LINKERD_NAMESPACE');
    }
    expect((await runCli(['install', '--help'])).stdout).toContain(
      '  -L, --linkerd-namespace string   Namespace in which Linkerd is installed ($LINKERD_NAMESPACE) (default "linkerd")\n',
    );
  });

  it('runs linkerd-<name> from PATH for an unknown subcommand, passing the arguments through', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'l5d-plugin-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const plugin = path.join(dir, 'linkerd-hello');
    writeFileSync(plugin, '#!/bin/sh\necho "hello $*"\n');
    chmodSync(plugin, 0o755);
    const r = await runCli(['hello', 'a', '--b'], { env: { PATH: `${dir}${path.delimiter}${process.env.PATH}` } });
    expect(r.stdout).toBe('hello a --b\n');
    expect(r.code).toBe(0);
  });

  it('says an unknown command is unknown when no extension provides it', async () => {
    const r = await runCli(['frobnicate']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown command "frobnicate"');
  });

  it('dispatches only plain names: `/../evil` runs nothing outside PATH', async () => {
    // Without the check, `linkerd-/../evil` resolves relative to the working directory to ./evil.
    const dir = mkdtempSync(path.join(tmpdir(), 'l5d-plugin-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(path.join(dir, 'linkerd-'));
    const marker = path.join(dir, 'ran');
    writeFileSync(path.join(dir, 'evil'), `#!/bin/sh\ntouch '${marker}'\n`);
    chmodSync(path.join(dir, 'evil'), 0o755);
    for (const name of ['/../evil', '../evil', 'a/b']) {
      const r = await runCli([name], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`Error: unknown command ${JSON.stringify(name)} for "linkerd"\nRun 'linkerd --help' for usage.\n`);
    }
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses flags before an extension name', async () => {
    const r = await runCli(['--bogus-flag', 'hello']);
    expect(r.code).toBe(1);
  });
});

describe('flag errors', () => {
  // pflag's and cobra's words, one Error line, then where the usage is; exit 1, nothing on stdout.
  it.each([
    [['install', '--bogus'], 'unknown flag: --bogus', 'linkerd install'],
    [['install', '--bogus=1'], 'unknown flag: --bogus', 'linkerd install'],
    [['version', '--client', '-x'], "unknown shorthand flag: 'x' in -x", 'linkerd version'],
    [['check', '--output'], 'flag needs an argument: --output', 'linkerd check'],
    [['check', '-n'], "flag needs an argument: 'n' in -n", 'linkerd check'],
    // A global flag's error names the command being run, wherever the flag stands.
    [['install', '-L'], "flag needs an argument: 'L' in -L", 'linkerd install'],
    [['install', '--linkerd-namespace'], 'flag needs an argument: --linkerd-namespace', 'linkerd install'],
    [['--context', 'x', 'identity', 'rotate', 'status', '-L'], "flag needs an argument: 'L' in -L", 'linkerd identity rotate status'],
    [['-L'], "flag needs an argument: 'L' in -L", 'linkerd'],
    [['version', 'extra'], 'unknown command "extra" for "linkerd version"', 'linkerd version'],
    [['identity', 'rotate', 'status', 'extra'], 'unknown command "extra" for "linkerd identity rotate status"', 'linkerd identity rotate status'],
    [['identity', 'rotate', 'bogus'], 'unknown command "bogus" for "linkerd identity rotate"', 'linkerd identity rotate'],
  ])('reports %j as cobra does: %s', async (args, message, path) => {
    const r = await runCli(args);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`Error: ${message}\nRun '${path} --help' for usage.\n`);
  });

  it.each([
    [['completion', 'bash', 'zsh'], 'accepts at most 1 arg(s), received 2', ['completion']],
    [['completion'], 'accepts 1 arg(s), received 0', ['completion']],
    [['identity', 'inspect', 'a', 'b'], 'accepts at most 1 arg(s), received 2', ['identity', 'inspect']],
  ])('after a wrong number of operands (%j), prints cobra’s usage block as the real CLI does', async (args, message, command) => {
    const help = (await runCli([...command, '--help'])).stdout;
    const r = await runCli(args);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    // cobra: the error line, then UsageString (the help without its description), then a blank line.
    expect(r.stderr).toBe(`Error: ${message}\n${help.slice(help.indexOf('Usage:\n'))}\n`);
  });

  it('keeps the suggestion for a mistyped flag', async () => {
    const r = await runCli(['inject', '--manul', 'x.yaml']);
    expect(r.stderr).toBe("Error: unknown flag: --manul\n(Did you mean --manual?)\nRun 'linkerd inject --help' for usage.\n");
  });
});
