import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, writeKubeconfig, type ApiServer } from '../support/apiserver.js';
import { runBounded } from '../support/bounded.js';
import { aliasBombValues } from '../support/hostile.js';
import { edit, healthyCluster } from '../core/check/support/clusters.js';

/*
 * Issue 10 items 2, 3 and 12 against servers on loopback: an API server whose answers never end,
 * one whose error messages carry terminal escapes and 200 KB of text, and a cluster whose
 * linkerd-config holds an alias bomb. Every run is fenced (support/bounded.ts).
 */

type Mode = 'endless' | 'hostile-status';
let mode: Mode = 'endless';
let server: http.Server;
let dir: string;
let kubeconfig: string;

const ESC = '\u001b';
// Clears the screen, sets the window title, then a 200 KB line.
const HOSTILE = `${ESC}[2J${ESC}[H${ESC}]0;owned${String.fromCharCode(7)}forbidden: ${'A'.repeat(200_000)}`;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l5d-hostile-server-'));
  server = http.createServer((_req, res) => {
    if (mode === 'hostile-status') {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Forbidden', code: 403, message: HOSTILE }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(1 << 16, ' ');
    res.write('{"kind":"APIResourceList","padding":"');
    const pump = () => {
      while (res.write(chunk));
    };
    res.on('drain', pump);
    res.on('close', () => res.off('drain', pump));
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  kubeconfig = writeKubeconfig(path.join(dir, 'config'), [
    { name: 'hostile', server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: 't' },
  ]);
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('Kubernetes API bodies are bounded (issue 10 item 3)', () => {
  it('check reports an endless answer in its table, one line, and finishes the table', async () => {
    mode = 'endless';
    const r = await runBounded(['check', '--timeout', '50s', '--wait', '0s'], { env: { KUBECONFIG: kubeconfig }, maxRssMb: 700, timeoutMs: 58_000 });
    expect(r.killed).toBeUndefined();
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/This is a bug|ERR_STRING_TOO_LONG|\n\s+at /);
    expect(r.stdout).toMatch(
      /\n {4}Get "http:\/\/127\.0\.0\.1:\d+\/version\?timeout=50s": response body: larger than the 256 MiB limit for Kubernetes API responses read at once\n {4}see \S+ for hints\n\n$/,
    );
    // Extension discovery meets the same answer and ends the run, as the real CLI's does.
    expect(r.stderr).toMatch(/^Failed to run extensions checks: Get "http:\/\/127\.0\.0\.1:\d+\/api\/v1\/namespaces\?[^"]*": response body: larger than/);
  });
});

describe('server text is made safe for the terminal (issue 10 item 12)', () => {
  const safe = (text: string) => {
    expect(text).not.toContain(ESC);
    expect(text).not.toContain(String.fromCharCode(7));
    for (const line of text.split('\n')) expect(line.length).toBeLessThan(1200);
  };

  it('in the check table', async () => {
    mode = 'hostile-status';
    const r = await runBounded(['check', '--timeout', '5s', '--wait', '0s'], { env: { KUBECONFIG: kubeconfig } });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('forbidden: AAAA');
    expect(r.stdout).toMatch(/A… \(\d+ more characters\)\n/);
    safe(r.stdout);
    safe(r.stderr);
  });

  it("on install's stderr", async () => {
    mode = 'hostile-status';
    const r = await runBounded(['install'], { env: { KUBECONFIG: kubeconfig } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('forbidden: AAAA');
    expect(r.stderr).toContain('You can use the --ignore-cluster flag');
    safe(r.stderr);
  });

  it("in version's answer and, with --verbose, its reason for no answer", async () => {
    mode = 'hostile-status';
    const unavailable = await runBounded(['version', '--verbose'], { env: { KUBECONFIG: kubeconfig } });
    expect(unavailable.stdout).toMatch(/^Client version: \S+\nServer version: unavailable\n$/);
    expect(unavailable.stderr).toMatch(/^Server version unavailable: .*forbidden: AAAA/m);
    safe(unavailable.stderr);
  });

  it("in version's answer: the control plane's version as linkerd-config has it", async () => {
    const cluster = await healthyCluster();
    // YAML's own escapes: \e is ESC, \a is BEL.
    const hostile = `"stable-2.14.0\\e[2J\\e]0;owned\\a${'A'.repeat(200_000)}"`;
    const objects = edit(
      cluster.objects,
      'ConfigMap',
      'linkerd-config',
      (cm) => {
        const data = cm.data as Record<string, string>;
        return { ...cm, data: { ...data, values: (data.values ?? '').replace(/^linkerdVersion: .*$/m, `linkerdVersion: ${hostile}`) } };
      },
      'linkerd',
    );
    const api = await startApiServer({ objects });
    try {
      const r = await runBounded(['version'], { env: { KUBECONFIG: api.kubeconfigPath } });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/\nServer version: stable-2\.14\.0A+… \(\d+ more characters\)\n$/);
      safe(r.stdout);
    } finally {
      await api.stop();
    }
  });

  it('JSON output keeps the text, escaped by JSON itself', async () => {
    mode = 'hostile-status';
    const r = await runBounded(['check', '--timeout', '5s', '--wait', '0s', '-o', 'json'], { env: { KUBECONFIG: kubeconfig } });
    expect(r.stdout).not.toContain(ESC);
    expect(r.stdout).toContain('\\u001b[2J');
  });
});

describe("an alias bomb in the cluster's linkerd-config (issue 10 item 2)", () => {
  let api: ApiServer;
  beforeAll(async () => {
    const cluster = await healthyCluster();
    const objects = edit(cluster.objects, 'ConfigMap', 'linkerd-config', (cm) => ({ ...cm, data: { values: aliasBombValues() } }), 'linkerd');
    api = await startApiServer({ objects });
  });
  afterAll(() => api.stop());

  it('inject refuses it in one line, in little memory', async () => {
    const r = await runBounded(['inject', 'fixtures/manifests/list.yaml'], { env: { KUBECONFIG: api.kubeconfigPath }, maxRssMb: 300, maxOldSpaceMb: 128 });
    expect(r.killed).toBeUndefined();
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      "Cannot find Linkerd: failed to parse linkerd-config values: aliases expand it past 1,000,000 nodes (an alias bomb?); refusing to expand it\nValidate the install with: 'linkerd check'\n",
    );
  });

  it('check reports it in the table, in little memory', async () => {
    const r = await runBounded(['check', '--wait', '0s'], { env: { KUBECONFIG: api.kubeconfigPath }, maxRssMb: 300, maxOldSpaceMb: 128 });
    expect(r.killed).toBeUndefined();
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/aliases expand it past 1,000,000 nodes/);
    expect(r.stdout).toMatch(/Status check results are ×\n$/);
    expect(r.stderr).not.toMatch(/This is a bug/);
  });
});
