import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FamilyDeclaration } from '../../../src/cli/kit/family.js';
import { deprecatedAliases } from '../../../src/cli/kit/family.js';
import { runLinkerd } from '../../../src/cli/main.js';
import { onPath } from '../../../src/core/net/openBrowser.js';
import { startApiServer, type ApiServer } from '../../support/apiserver.js';
import { bufferIo, LINKERD_BIN, REPO_ROOT, runCli } from '../../support/cli.js';
import { clusterWithViz } from './cluster.js';

/*
 * `viz dashboard` end to end: the CLI (a real process, so Ctrl-C is a real SIGINT) port-forwards
 * through the loopback API server to a loopback "web" server, and headless Chromium loads the URL
 * it prints; what Chromium saw is compared with what the server serves.
 */

const PAGE = '<!DOCTYPE html><html><head><title>Linkerd dashboard (loopback)</title></head><body><h1 id="app">viz web</h1></body></html>';

let api: ApiServer;
let web: http.Server;
const hosts: string[] = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'linkerd-ts-dashboard-'));

beforeAll(async () => {
  // The web server answers only the Hosts the real one accepts (templates/web.yaml's default).
  web = http.createServer((req, res) => {
    hosts.push(req.headers.host ?? '');
    if (!/^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(req.headers.host ?? '')) {
      res.writeHead(400).end('It appears that you are trying to reach this service with a host of ...');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  const webPort = (web.address() as AddressInfo).port;
  api = await startApiServer({
    objects: await clusterWithViz(),
    portForward: (ns, pod, port) => (ns === 'linkerd-viz' && pod.startsWith('web-') && port === 8084 ? { host: '127.0.0.1', port: webPort } : undefined),
  });
});

afterAll(async () => {
  await api.stop();
  web.closeAllConnections();
  await new Promise<void>((resolve) => web.close(() => resolve()));
  fs.rmSync(tmp, { recursive: true, force: true });
});

interface Running {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  /** Resolves once stdout holds `lines` lines. */
  lines(n: number): Promise<string[]>;
  /** SIGINT, then the exit: code and signal. */
  interrupt(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startDashboard(args: string[], env: NodeJS.ProcessEnv = {}): Running {
  const child = spawn(LINKERD_BIN, args, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: '/nonexistent', CI: 'true', KUBECONFIG: '/nonexistent/kubeconfig', ...env },
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    async lines(n) {
      const deadline = Date.now() + 30_000;
      while (out.split('\n').length <= n) {
        if (child.exitCode !== null) throw new Error(`the dashboard exited ${child.exitCode}: ${err}`);
        if (Date.now() > deadline) throw new Error(`no ${n} lines in 30 s: ${out} / ${err}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return out.split('\n').slice(0, n);
    },
    async interrupt() {
      child.kill('SIGINT');
      return exited;
    },
  };
}

/** What headless Chromium renders at `url` (its DOM after load). */
function chromiumDom(url: string): Promise<string> {
  const profile = fs.mkdtempSync(path.join(tmp, 'chromium-'));
  return new Promise((resolve, reject) => {
    const child = spawn(
      'chromium',
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--no-first-run',
        '--disable-component-update',
        '--disable-sync',
        `--user-data-dir=${profile}`,
        '--dump-dom',
        url,
      ],
      { env: { PATH: process.env.PATH, HOME: profile }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let dom = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (dom += d));
    child.stderr.resume();
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      fs.rmSync(profile, { recursive: true, force: true });
      if (code === 0) resolve(dom);
      else reject(new Error(`chromium exited ${code}`));
    });
  });
}

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', () => resolve(true));
  });

describe('linkerd viz dashboard', () => {
  it('--show url: prints the URLs of a port-forward to viz web, which Chromium loads; Ctrl-C closes it', async () => {
    const run = startDashboard(['viz', 'dashboard', '--show', 'url', '-p', '0', '--kubeconfig', api.kubeconfigPath]);
    const lines = await run.lines(4);
    expect(lines[0]).toBe('Linkerd dashboard available at:');
    expect(lines[1]).toMatch(/^http:\/\/localhost:\d+$/);
    expect(lines[2]).toBe('Grafana dashboard available at:');
    expect(lines[3]).toBe(`${lines[1] ?? ''}/grafana`);
    const url = lines[1] ?? '';
    const port = Number(new URL(url).port);

    const dom = await chromiumDom(url);
    const served = PAGE.match(/<title>.*<\/title>/)?.[0] ?? '';
    expect(dom).toContain(served);
    expect(dom).toContain('<h1 id="app">viz web</h1>');
    expect(hosts).toContain(`localhost:${port}`);
    expect(api.requests.some((r) => /\/namespaces\/linkerd-viz\/pods\/web-[^/]+\/portforward$/.test(r.path))).toBe(true);

    const end = await run.interrupt();
    // Ended by the signal, as a shell reports with 130.
    expect(end).toEqual({ code: null, signal: 'SIGINT' });
    expect(run.stderr()).toBe('');
    expect(run.stdout().split('\n')).toHaveLength(5);
    expect(await refused(port)).toBe(true);
  }, 120_000);

  it('--as a user who may not list namespaces: viz is looked for in linkerd-viz (linkerd/linkerd2#13169)', async () => {
    api.setDenials([{ verb: 'list', resource: 'namespaces', user: 'alice' }]);
    try {
      const run = startDashboard(['viz', 'dashboard', '--show', 'url', '-p', '0', '--wait', '0s', '--as', 'alice', '--kubeconfig', api.kubeconfigPath]);
      const lines = await run.lines(4);
      expect(lines[0]).toBe('Linkerd dashboard available at:');
      const byAlice = api.requests.filter((r) => r.user === 'alice').map((r) => `${r.method} ${r.path}`);
      expect(byAlice).toContain('GET /api/v1/namespaces/linkerd-viz/pods');
      expect((await run.interrupt()).signal).toBe('SIGINT');
      expect(run.stderr()).toBe('');
    } finally {
      api.setDenials([]);
    }
  }, 60_000);

  it('--show linkerd opens the browser with the platform opener; without one, prints where to go', async () => {
    const bin = path.join(tmp, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    // Only what the launcher runs: node, readlink and stat; no browser opener.
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    for (const tool of ['readlink', 'stat']) fs.symlinkSync(onPath(tool, process.env) ?? tool, path.join(bin, tool));
    const none = startDashboard(['viz', 'dashboard', '-p', '0', '--kubeconfig', api.kubeconfigPath], { PATH: bin });
    const lines = await none.lines(5);
    expect(lines[4]).toBe('Opening Linkerd dashboard in the default browser');
    const deadline = Date.now() + 10_000;
    while (!none.stderr().endsWith('to view the dashboard\n') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(none.stderr()).toBe(`Failed to open Linkerd dashboard automatically\nVisit ${lines[1] ?? ''} in your browser to view the dashboard\n`);
    expect((await none.interrupt()).signal).toBe('SIGINT');

    // An xdg-open that records what it was asked to open.
    const opened = path.join(tmp, 'opened.txt');
    fs.writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`, { mode: 0o755 });
    const grafana = startDashboard(['viz', 'dashboard', '--show', 'grafana', '-p', '0', '--kubeconfig', api.kubeconfigPath], { PATH: bin });
    const g = await grafana.lines(5);
    expect(g[4]).toBe('Opening Grafana dashboard in the default browser');
    const read = () => (fs.existsSync(opened) ? fs.readFileSync(opened, 'utf8') : '');
    while (read() === '' && Date.now() < deadline + 10_000) await new Promise((r) => setTimeout(r, 50));
    expect(fs.readFileSync(opened, 'utf8')).toBe(g[3]);
    expect((await grafana.interrupt()).signal).toBe('SIGINT');
    expect(grafana.stderr()).toBe('');
  }, 60_000);

  it('refuses bad flags and a busy port with the real words', async () => {
    const env = { HOME: '/nonexistent' };
    expect(await runCli(['viz', 'dashboard', '-p', '-1'], { env })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: port must be greater than or equal to zero, was -1\n',
    });
    expect((await runCli(['viz', 'dashboard', '--show', 'kiali'], { env })).stderr).toBe(
      "Error: unknown value for 'show' param, was: kiali, must be one of: linkerd, grafana, url\n",
    );
    expect((await runCli(['viz', 'dashboard', '-p', 'x'], { env })).stderr).toBe(
      'Error: invalid argument "x" for "-p, --port" flag: strconv.ParseInt: parsing "x": invalid syntax\n',
    );
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as AddressInfo).port;
    const r = await runCli(['viz', 'dashboard', '--show', 'url', '-p', String(port), '--kubeconfig', api.kubeconfigPath], { env });
    busy.close();
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: `Error running port-forward: listen tcp 127.0.0.1:${port}: bind: address already in use\nCheck for \`linkerd dashboard\` running in other terminal sessions, or use the \`--port\` flag.\n`,
    });
  });

  it('without viz (and --wait 0s): the real two lines, no retry', async () => {
    const bare = await startApiServer({ objects: [] });
    const r = await runCli(['viz', 'dashboard', '--wait', '0s', '--kubeconfig', bare.kubeconfigPath], { env: { HOME: '/nonexistent' } });
    await bare.stop();
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Cannot connect to Linkerd Viz: namespace with label "linkerd.io/extension: viz" not found\nValidate the install with: linkerd viz check\n',
    });
  });
});

describe('deprecated root aliases (linkerd dashboard, stat, tap, top, routes, edges)', () => {
  it('`linkerd dashboard` prints cobra’s deprecation line, then runs viz dashboard', async () => {
    const r = await runCli(['dashboard', '--show', 'kiali'], { env: { HOME: '/nonexistent' } });
    expect(r.stderr).toBe(
      "Command \"dashboard\" is deprecated, use instead 'linkerd viz dashboard [flags]'\n\nError: unknown value for 'show' param, was: kiali, must be one of: linkerd, grafana, url\n",
    );
    expect(r.code).toBe(1);
    const help = await runCli(['dashboard', '--help']);
    expect(help.stdout).toContain('--show string');
  });

  it('are hidden from root help and completion', async () => {
    const help = await runCli(['--help']);
    expect(help.stdout).toContain('  viz ');
    expect(help.stdout).not.toMatch(/^ {2}dashboard /m);
    const complete = await runCli(['__complete', 'da']);
    expect(complete.stdout.split('\n')).not.toContain('dashboard');
  });

  it('are made for any declared subcommand by name, loading it only when run', async () => {
    let loads = 0;
    const parent = {
      name: 'fam',
      summary: 'a family',
      load: () => Promise.resolve({ command: {} }),
      subcommands: [
        {
          name: 'hello',
          summary: 'Say hello',
          load: () => {
            loads++;
            return Promise.resolve({ command: { run: ({ io }: { io: { stdout: NodeJS.WriteStream } }) => Promise.resolve(void io.stdout.write('hello\n')) } });
          },
        },
      ],
    };
    const family: FamilyDeclaration = {
      name: 'fam',
      commands: [parent, ...deprecatedAliases(parent, 'linkerd fam', { hello: 'hello [flags]', absent: 'absent' })],
    };
    expect(family.commands.map((c) => c.name)).toEqual(['fam', 'hello']);
    const b = bufferIo();
    const code = await runLinkerd(['hello'], b.io, [family]);
    expect([code, b.stdout(), b.stderr()]).toEqual([0, 'hello\n', 'Command "hello" is deprecated, use instead \'linkerd fam hello [flags]\'\n\n']);
    expect(loads).toBe(1);
  });
});
