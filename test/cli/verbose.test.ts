import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestLogLine } from '../../src/cli/output/requestLog.js';
import { type ApiServer, startApiServer, writeKubeconfig } from '../support/apiserver.js';
import { runCli } from '../support/cli.js';

const KLOG_LINE = /^I\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ round_trippers\.go\] /;

describe('--verbose request log', () => {
  it('formats one line as kubectl does at -v=6', () => {
    const at = new Date(2026, 11, 1, 15, 47, 0, 123);
    expect(requestLogLine({ method: 'GET', url: 'https://127.0.0.1:6443/api/v1/namespaces', status: 200, durationMs: 5 }, at, 4242)).toBe(
      'I1201 15:47:00.123000    4242 round_trippers.go] GET https://127.0.0.1:6443/api/v1/namespaces 200 OK in 5 milliseconds\n',
    );
    expect(requestLogLine({ method: 'GET', url: 'https://x/api', error: 'dial tcp x:443: connect: connection refused', durationMs: 1 }, at, 1)).toContain(
      'GET https://x/api (dial tcp x:443: connect: connection refused) in 1 milliseconds',
    );
  });

  describe('against a loopback API server', () => {
    let server: ApiServer;
    let down: string;
    let dir: string;
    beforeAll(async () => {
      server = await startApiServer({});
      dir = mkdtempSync(path.join(tmpdir(), 'l5d-verbose-'));
      down = writeKubeconfig(path.join(dir, 'config'), [{ name: 'down', server: 'https://127.0.0.1:1' }]);
    });
    afterAll(async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('logs each API request (method, URL, status, duration) on stderr, and why the server version is unavailable', async () => {
      const r = await runCli(['version', '--verbose', '--kubeconfig', server.kubeconfigPath]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('Client version: edge-26.9.1\nServer version: unavailable\n');
      const lines = r.stderr.split('\n').filter((l) => l !== '');
      const logged = lines.filter((l) => KLOG_LINE.test(l));
      expect(logged.length).toBe(server.requestCount());
      expect(logged[0]).toMatch(new RegExp(`\\] GET ${server.url}/api/v1/namespaces/linkerd/configmaps/linkerd-config 404 Not Found in \\d+ milliseconds$`));
      expect(lines).toContain('Server version unavailable: no linkerd-config ConfigMap in namespace linkerd');
    });

    it('says nothing of the sort without --verbose', async () => {
      const r = await runCli(['version', '--kubeconfig', server.kubeconfigPath]);
      expect(r.stderr).toBe('');
    });

    it('names the network error when the API server cannot be reached', async () => {
      const r = await runCli(['version', '--verbose', '--kubeconfig', down]);
      expect(r.stdout).toBe('Client version: edge-26.9.1\nServer version: unavailable\n');
      expect(r.stderr).toMatch(
        /round_trippers\.go\] GET https:\/\/127\.0\.0\.1:1\/\S+ \(dial tcp 127\.0\.0\.1:1: connect: connection refused\) in \d+ milliseconds\n/,
      );
      expect(r.stderr).toContain(
        'Server version unavailable: Get "https://127.0.0.1:1/api/v1/namespaces/linkerd/configmaps/linkerd-config": dial tcp 127.0.0.1:1: connect: connection refused\n',
      );
    });
  });
});

describe('--verbose stack traces', () => {
  for (const [how, env] of [
    ['from the start-up snapshot', {}],
    ['from the bundle', { LINKERD_TS_NO_SNAPSHOT: '1' }],
  ] as const) {
    it(`point at the TypeScript sources (${how})`, async () => {
      // The built snapshot and bundle map their frames back: spawned.
      const r = await runCli(['install', '--ignore-cluster', '--inbound-port', '70000', '--verbose'], { env, spawn: true });
      expect(r.code).toBe(1);
      const frames = r.stderr.split('\n').filter((l) => /^\s+at /.test(l));
      expect(frames.length).toBeGreaterThan(2);
      // The error is made by pflag's one sentence (core/parse), called where the values engine parses the flag.
      expect(frames[0]).toMatch(/\(src\/core\/parse\/invalidArgument\.ts:\d+:\d+\)$/);
      expect(frames[1]).toMatch(/\(src\/core\/values\/\w+\.ts:\d+:\d+\)$/);
      // V8 keeps ten frames: every one of ours names a TypeScript source, none the built files.
      expect(frames.filter((l) => !/\(node:/.test(l)).every((l) => /\(src\/[\w/.-]+\.ts:\d+:\d+\)$/.test(l))).toBe(true);
      expect(r.stderr).not.toMatch(/dist\/(bundle|snapshot)\//);
    });
  }

  it('are not printed without --verbose', async () => {
    const r = await runCli(['install', '--ignore-cluster', '--inbound-port', '70000']);
    expect(r.stderr).toBe('Error: invalid argument "70000" for "--inbound-port" flag: must be <= 65535 (got 70000)\n');
  });
});
