import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer } from '../support/apiserver.js';
import { runBounded } from '../support/bounded.js';

/*
 * Issue 10 item 5: a kubeconfig exec credential plugin that never returns (`sleep 1000`) must not
 * hang the CLI, and must not outlive it. The cluster address is a closed loopback port: nothing
 * is reached before the plugin answers anyway.
 */

let dir: string;
let kubeconfig: string;
let pidFile: string;

function writeConfig(command: string, args: string[], server = 'https://127.0.0.1:1', caPem?: string): string {
  const file = path.join(dir, `config-${path.basename(command)}`);
  fs.writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: c',
      `  cluster: {server: ${JSON.stringify(server)}${caPem ? `, certificate-authority-data: ${Buffer.from(caPem).toString('base64')}` : ''}}`,
      'contexts:',
      '- name: x',
      '  context: {cluster: c, user: u}',
      'current-context: x',
      'users:',
      '- name: u',
      '  user:',
      '    exec:',
      '      apiVersion: client.authentication.k8s.io/v1beta1',
      `      command: ${JSON.stringify(command)}`,
      `      args: ${JSON.stringify(args)}`,
      '',
    ].join('\n'),
  );
  return file;
}

/** Whether a process is still alive (a zombie waiting for its reaper counts as gone). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l5d-exec-'));
  kubeconfig = writeConfig('sleep', ['1000']);
  // The same plugin, telling us its pid first so the test can look for it afterwards.
  pidFile = path.join(dir, 'plugin.pid');
  const script = path.join(dir, 'slow-plugin');
  fs.writeFileSync(script, `#!/bin/sh\necho $$ > ${JSON.stringify(pidFile)}\nexec sleep 1000\n`, { mode: 0o755 });
  writeConfig(script, []);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('exec credential plugins have a deadline (issue 10 item 5)', () => {
  it('version prints the client version first, then gives up on the server', async () => {
    const r = await runBounded(['version'], { env: { KUBECONFIG: kubeconfig }, timeoutMs: 30_000 });
    expect(r.killed).toBeUndefined();
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Client version: \S+\nServer version: unavailable\n$/);
  });

  it('check reports the plugin that did not answer within --timeout, in the table', async () => {
    const r = await runBounded(['check', '--timeout', '2s'], { env: { KUBECONFIG: kubeconfig }, timeoutMs: 30_000 });
    expect(r.killed).toBeUndefined();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('× can initialize the client\n    getting credentials: exec: executable sleep did not finish within 2s; it was stopped\n');
    // As the real CLI: the extensions cannot be discovered either, so it stops with that error (no status line).
    expect(r.stdout).not.toContain('Status check results');
    expect(r.stderr).toMatch(/^Failed to run extensions checks: .*did not finish within 2s/m);
  });

  it('the plugin is killed when the deadline passes', async () => {
    fs.rmSync(pidFile, { force: true });
    const config = path.join(dir, 'config-slow-plugin');
    const r = await runBounded(['check', '--timeout', '2s'], { env: { KUBECONFIG: config }, timeoutMs: 30_000 });
    expect(r.code).toBe(1);
    const pluginPid = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(alive(pluginPid)).toBe(false);
  });

  it('SIGINT stops the CLI and the plugin with it', async () => {
    fs.rmSync(pidFile, { force: true });
    const config = path.join(dir, 'config-slow-plugin');
    let cli = 0;
    const run = runBounded(['check', '--timeout', '60s'], { env: { KUBECONFIG: config }, timeoutMs: 30_000, onStart: (pid) => (cli = pid) });
    // `echo $$ > file` creates the file before it writes the pid: wait for the whole line.
    const written = () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').endsWith('\n');
    for (let i = 0; i < 400 && !written(); i++) await new Promise((r) => setTimeout(r, 50));
    const pluginPid = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(alive(pluginPid)).toBe(true);
    process.kill(cli, 'SIGINT');
    const r = await run;
    expect(r.killed).toBeUndefined();
    expect(r.signal).toBe('SIGINT');
    for (let i = 0; i < 40 && alive(pluginPid); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive(pluginPid)).toBe(false);
  });
});

describe('exec credential plugins that answer', () => {
  it('authenticate every request with the token, running the plugin once, with KUBERNETES_EXEC_INFO', async () => {
    const api = await startApiServer({
      objects: [
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'linkerd-config', namespace: 'linkerd' }, data: { values: 'linkerdVersion: edge-1.2.3\n' } },
      ],
    });
    try {
      const runs = path.join(dir, 'runs');
      const script = path.join(dir, 'token-plugin');
      const credential = { apiVersion: 'client.authentication.k8s.io/v1beta1', kind: 'ExecCredential', status: { token: api.token } };
      fs.writeFileSync(script, `#!/bin/sh\necho "$KUBERNETES_EXEC_INFO" >> ${JSON.stringify(runs)}\necho '${JSON.stringify(credential)}'\n`, { mode: 0o755 });
      const config = writeConfig(script, [], api.url, api.caPem);
      const r = await runBounded(['version', '--proxy'], { env: { KUBECONFIG: config } });
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^Client version: \S+\nServer version: edge-1\.2\.3\nProxy versions:/);
      expect(api.requests.length).toBeGreaterThan(1);
      const lines = fs.readFileSync(runs, 'utf8').trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0] ?? '')).toEqual({ apiVersion: 'client.authentication.k8s.io/v1beta1', kind: 'ExecCredential', spec: { interactive: false } });
    } finally {
      await api.stop();
    }
  });
});
