import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

/*
 * A password written into a URL — a kubeconfig `server`, an `-f` values URL, a manifest URL for
 * inject, uninject or `upgrade --from-manifests` — is never printed: errors, hints, `--verbose`
 * request logs and stack traces show it as `xxxxx`, as Go's url.URL.Redacted() does.
 */

const PASSWORD = 's3cretpw';

let dir: string;
let kubeconfig: string;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'l5d-url-passwords-'));
  // Port 1 on loopback: nothing listens, so every request fails at once and the error names the server.
  kubeconfig = path.join(dir, 'config');
  writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      `- {name: c, cluster: {server: "https://admin:${PASSWORD}@127.0.0.1:1"}}`,
      'users:',
      '- {name: u, user: {token: t}}',
      'contexts:',
      '- {name: x, context: {cluster: c, user: u}}',
      'current-context: x',
      '',
    ].join('\n'),
  );
  // A loopback server that sends every request on to a URL carrying a password.
  server = createServer((req, res) => {
    const port = (server.address() as AddressInfo).port;
    if (req.url === '/redirect') res.writeHead(302, { Location: `http://u:${PASSWORD}@127.0.0.1:${port}/next` }).end();
    else res.writeHead(500, 'Internal Server Error').end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function expectRedacted(args: string[]): Promise<void> {
  const r = await runCli(args, { env: { HOME: dir } });
  const printed = `${r.stdout}\n${r.stderr}`;
  expect(printed).not.toContain(PASSWORD);
  expect(printed).toContain(':xxxxx@');
}

describe('a kubeconfig server with a password', () => {
  it.each(
    [
      ['--verbose', 'version'],
      ['check', '--pre'],
      ['check', '-o', 'json'],
      ['upgrade'],
      ['--verbose', 'uninstall'],
      ['prune'],
      ['identity', 'rotate', 'status'],
    ].map((args) => [args.join(' '), args] as const),
  )('is printed without it: linkerd %s', async (_, args) => {
    await expectRedacted(['--kubeconfig', kubeconfig, ...args]);
  });

  it('is printed without it in --verbose request logs', async () => {
    const r = await runCli(['--kubeconfig', kubeconfig, '--verbose', 'version'], { env: { HOME: dir } });
    expect(r.stderr).toMatch(/round_trippers\.go\] GET https:\/\/admin:xxxxx@127\.0\.0\.1:1\/api\//);
    expect(r.stderr).not.toContain(PASSWORD);
  });
});

describe('a URL argument with a password', () => {
  const url = (p: string) => `http://u:${PASSWORD}@127.0.0.1:1${p}`;
  it.each(
    [
      ['install', '--ignore-cluster', '-f', url('/values.yaml')],
      ['--verbose', 'install', '--ignore-cluster', '--values', url('/values.yaml')],
      ['install', '--ignore-cluster', '-f', `ftp://u:${PASSWORD}@127.0.0.1:1/values.yaml`],
      ['inject', url('/manifest.yaml')],
      ['--verbose', 'uninject', url('/manifest.yaml')],
      ['upgrade', '--from-manifests', url('/manifest.yaml')],
    ].map((args) => [args.join(' '), args] as const),
  )('is printed without it: linkerd %s', async (_, args) => {
    await expectRedacted(args);
  });

  it("is printed without it when it is an image config's repository", async () => {
    const config = path.join(dir, 'image.yaml');
    writeFileSync(config, `contents:\n  repositories: ["https://u:${PASSWORD}@127.0.0.1:1/alpine/main"]\n  packages: [busybox]\n`);
    await expectRedacted(['image', 'build', config, '-o', path.join(dir, 'image.tar')]);
  });

  it('is printed without it when a redirect leads there', async () => {
    await expectRedacted(['inject', `${base}/redirect`]);
    await expectRedacted(['install', '--ignore-cluster', '-f', `${base}/redirect`]);
  });
});
