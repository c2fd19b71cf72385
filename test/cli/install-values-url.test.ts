import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

type Obj = { kind: string; metadata: { name: string }; data?: Record<string, string> };

const docs = (stdout: string) => yaml.loadAll(stdout).filter((d): d is Obj => d !== null && typeof d === 'object');
const configValues = (stdout: string) => {
  const cm = docs(stdout).find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'linkerd-config')!;
  return yaml.load(cm.data!.values) as Record<string, unknown>;
};

const ROUTES: Record<string, string> = {
  '/v.yaml': 'controllerLogLevel: debug\ncontrollerReplicas: 2\n',
  '/bad.yaml': 'proxy:\n  logLevel: info\n   ports: 4191\n',
  '/typo.yaml': 'controllerLogLevle: debug\n',
};

let server: Server;
let base: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'l5d-install-values-url-'));
  server = createServer((req, res) => {
    const body = ROUTES[req.url ?? ''];
    if (body === undefined) res.writeHead(404, 'Not Found').end();
    else res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('linkerd install -f URL (CLI)', () => {
  it('renders with the values of a fetched file', async () => {
    const r = await runCli(['install', '--ignore-cluster', '-f', `${base}/v.yaml`]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(configValues(r.stdout)).toMatchObject({ controllerLogLevel: 'debug', controllerReplicas: 2 });
  });

  it('orders a URL among local files and under --set', async () => {
    const local = join(dir, 'local.yaml');
    writeFileSync(local, 'controllerLogLevel: trace\n');
    const level = async (args: string[]) => {
      const r = await runCli(['install', '--ignore-cluster', ...args]);
      expect(r.stderr).toBe('');
      return configValues(r.stdout).controllerLogLevel;
    };
    expect(await level(['-f', local, '-f', `${base}/v.yaml`])).toBe('debug');
    expect(await level(['-f', `${base}/v.yaml`, '-f', local])).toBe('trace');
    expect(await level(['-f', `${base}/v.yaml`, '--set', 'controllerLogLevel=warn'])).toBe('warn');
  });

  it('fails in one line naming the URL, with nothing on stdout', async () => {
    const cases: [string, string][] = [
      [`${base}/missing.yaml`, `Error: unable to read URL "${base}/missing.yaml", server reported 404 Not Found, status code=404\n`],
      ['http://example.com/v.yaml', 'Error: -f http://example.com/v.yaml: only HTTPS URLs are allowed (plain http only from localhost)\n'],
      [`${base}/typo.yaml`, `Error: ${base}/typo.yaml:1:1: controllerLogLevle: unknown key\n`],
    ];
    for (const [url, stderr] of cases) {
      const r = await runCli(['install', '--ignore-cluster', '-f', url]);
      expect([url, r.code, r.stdout, r.stderr]).toEqual([url, 1, '', stderr]);
    }
    const malformed = await runCli(['install', '--ignore-cluster', '-f', `${base}/bad.yaml`]);
    expect([malformed.code, malformed.stdout]).toEqual([1, '']);
    expect(malformed.stderr).toMatch(
      new RegExp(
        `^Error: ${base.replace(/\./g, '\\.')}/bad\\.yaml:3:\\d+: bad indentation of a mapping entry\\na values file is one YAML document: a map of chart values \\(as \`helm show values\` prints them\\)\\n$`,
      ),
    );
  });

  it('says so in one line when the host cannot be reached', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    const url = `http://127.0.0.1:${port}/v.yaml`;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const r = await runCli(['install', '--ignore-cluster', '-f', url]);
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', `Error: Get "${url}": dial tcp 127.0.0.1:${port}: connect: connection refused\n`]);
  });
});
