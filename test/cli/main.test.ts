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
  it('reports an unknown flag as one Error line with exit 1 and nothing on stdout', async () => {
    const r = await runCli(['install', '--bogus']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe("Error: unknown option '--bogus'\n");
  });
});
