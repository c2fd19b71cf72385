import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type ApiServer, startApiServer, writeKubeconfig } from '../support/apiserver.js';
import { LINKERD_BIN, runCli } from '../support/cli.js';

const run = promisify(execFile);

/** Candidates `linkerd __complete` offers for the words typed so far (the last is being typed). */
async function complete(words: string[], env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const r = await runCli(['__complete', ...words], { env });
  expect(r.code).toBe(0);
  return r.stdout.split('\n').filter((l) => l !== '');
}

describe('linkerd completion', () => {
  it('emits scripts for bash, zsh and fish that ask linkerd __complete', async () => {
    expect((await runCli(['completion', 'bash'])).stdout).toContain('complete -o default -F _linkerd_completions linkerd');
    expect((await runCli(['completion', 'zsh'])).stdout).toMatch(/^#compdef linkerd\n/);
    expect((await runCli(['completion', 'fish'])).stdout).toContain("complete -c linkerd -f -a '(__linkerd_complete)'");
  });

  it('rejects other shells with the real message', async () => {
    const r = await runCli(['completion', 'powershell']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('Error: unsupported shell type (must be bash, zsh or fish): powershell\n');
  });

  it('completes subcommands and shells', async () => {
    const all = await complete(['']);
    expect(all).toEqual(expect.arrayContaining(['check', 'completion', 'help', 'inject', 'install', 'uninject', 'version']));
    expect(all).toEqual([...all].sort());
    expect(all.filter((c) => c.startsWith('_'))).toEqual([]);
    expect(await complete(['in'])).toEqual(['inject', 'install', 'install-cni']);
    // Hidden commands run but are not offered, as cobra's completion leaves them out.
    expect(all).not.toContain('doc');
    expect(all).toContain('profile');
    expect(await complete(['completion', ''])).toEqual(['bash', 'zsh', 'fish']);
  });

  it('offers no --no-* twins and no hidden flags', async () => {
    expect(await complete(['install', '--no'])).toEqual([]);
    const flags = await complete(['install', '--']);
    expect(flags).toContain('--crds');
    expect(flags).toContain('--linkerd-namespace');
    expect(flags).not.toContain('--proxy-cpu');
    expect(flags).not.toContain('--proxy-image');
  });

  it('completes -o with the formats each command takes, also as --output=…', async () => {
    expect(await complete(['install', '-o', ''])).toEqual(['json', 'yaml']);
    expect(await complete(['check', '-o', ''])).toEqual(['table', 'json', 'short', 'junit']);
    expect(await complete(['check', '--output=j'])).toEqual(['--output=json', '--output=junit']);
    // bash splits at `=`: the words are `--output`, `=`, `j`
    expect(await complete(['check', '--output', '=', 'j'])).toEqual(['json', 'junit']);
  });

  it('completes --skip and --only with check ids and categories', async () => {
    expect(await complete(['check', '--skip', 'L5D100'])).toEqual(expect.arrayContaining(['L5D1001']));
    expect(await complete(['check', '--only', 'linkerd-i'])).toEqual(['linkerd-identity', 'linkerd-identity-data-plane']);
  });

  it("completes nothing (so the shell offers files) for inject's manifests", async () => {
    expect(await complete(['inject', ''])).toEqual([]);
  });

  describe('from the kubeconfig and the cluster', () => {
    let server: ApiServer;
    let kubeconfig: string;
    let unreachable: string;
    let dir: string;
    beforeAll(async () => {
      server = await startApiServer({
        objects: ['default', 'linkerd', 'shop'].map((name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })),
      });
      dir = mkdtempSync(path.join(tmpdir(), 'l5d-complete-'));
      kubeconfig = writeKubeconfig(path.join(dir, 'config'), [
        { name: 'test', server: server.url, caPem: server.caPem, token: server.token },
        { name: 'staging', server: server.url, caPem: server.caPem, token: server.token },
      ]);
      // Port 1 on loopback: refused at once; the completion must still answer.
      unreachable = writeKubeconfig(path.join(dir, 'down'), [{ name: 'down', server: 'https://127.0.0.1:1' }]);
    });
    afterAll(async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('contexts from the kubeconfig', async () => {
      expect(await complete(['--kubeconfig', kubeconfig, '--context', ''])).toEqual(['test', 'staging']);
      expect(await complete(['--context', 's'], { KUBECONFIG: kubeconfig })).toEqual(['staging']);
    });

    it('namespaces from the cluster, for -n, -L and --cni-namespace', async () => {
      expect(await complete(['--kubeconfig', kubeconfig, 'version', '-n', ''])).toEqual(['default', 'linkerd', 'shop']);
      expect(await complete(['-L', 'l'], { KUBECONFIG: kubeconfig })).toEqual(['linkerd']);
      expect(await complete(['check', '--cni-namespace=s'], { KUBECONFIG: kubeconfig })).toEqual(['--cni-namespace=shop']);
    });

    it('no namespaces, and no error, when the cluster cannot be reached', async () => {
      const r = await runCli(['__complete', '--kubeconfig', unreachable, 'check', '-n', '']);
      expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    });
  });

  it('drives the bash script end to end', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'l5d-bash-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(path.join(dir, 'script.sh'), (await runCli(['completion', 'bash'])).stdout);
    const probe = `source ${JSON.stringify(path.join(dir, 'script.sh'))}
COMP_WORDS=(${JSON.stringify(LINKERD_BIN)} install --out); COMP_CWORD=2; _linkerd_completions; echo "\${COMPREPLY[*]}"
COMP_WORDS=(${JSON.stringify(LINKERD_BIN)} check --output = j); COMP_CWORD=4; _linkerd_completions; echo "\${COMPREPLY[*]}"`;
    const r = await run('bash', ['-c', probe], { env: { PATH: process.env.PATH, HOME: process.env.HOME } });
    expect(r.stdout).toBe('--outbound-port --output\njson junit\n');
  });
});
