import { execFile } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServingCertificates } from '../support/apiserver-certs.js';
import { startApiServer, writeKubeconfig, type ApiServer } from '../support/apiserver.js';
import { runCli } from '../support/cli.js';
import { startConnectProxy, type TestProxy } from '../support/connectProxy.js';
import { closedPort } from '../core/check/support/run.js';

/*
 * The CLI and the real kubectl through one CONNECT proxy on 127.0.0.1. The kubeconfig names the API
 * server `kube.proxied.test:6443`, which only the proxy resolves (to the loopback server); the CLI runs
 * with its name resolution fenced to the machine (support/loopback-dns, preloaded, so from the bundle
 * rather than the start-up snapshot), and kubectl, given a proxy, resolves nothing itself.
 */
const NAME = 'kube.proxied.test:6443';
const FILES = 'manifests.proxied.test';
const FENCE = fileURLToPath(new URL('../support/loopback-dns.mjs', import.meta.url));

let server: ApiServer;
let proxy: TestProxy;
let files: https.Server;
let dir: string;
let kubeconfig: string;
let caFile: string;

const fenced = (env: NodeJS.ProcessEnv) => ({ LINKERD_TS_NO_SNAPSHOT: '1', NODE_OPTIONS: `--import=${FENCE}`, ...env });

function kubectl(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // A fresh discovery cache each time, so kubectl reports the underlying Go error of discovery too.
    const cache = fs.mkdtempSync(path.join(dir, 'kubectl-cache-'));
    execFile(
      'kubectl',
      ['--kubeconfig', kubeconfig, '--cache-dir', cache, ...args],
      { env: { PATH: process.env.PATH, HOME: dir, ...env }, encoding: 'utf8' },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  server = await startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml' });
  dir = server.dir;
  const certs = await createServingCertificates([FILES]);
  caFile = path.join(dir, 'files-ca.pem');
  fs.writeFileSync(caFile, certs.caPem);
  const deploy = fs.readFileSync('fixtures/manifests/shop.yaml', 'utf8');
  files = https.createServer({ cert: certs.certPem, key: certs.keyPem }, (_req, res) => res.end(deploy));
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', () => r()));
  proxy = await startConnectProxy({ routes: { [NAME]: server.port, [`${FILES}:443`]: (files.address() as net.AddressInfo).port } });
  kubeconfig = writeKubeconfig(path.join(dir, 'proxied.kubeconfig'), [
    { name: 'proxied', server: `https://${NAME}`, caPem: server.caPem, token: server.token, tlsServerName: 'localhost' },
  ]);
});
beforeEach(() => {
  proxy.tunnels.length = 0;
  proxy.forwarded.length = 0;
});
afterAll(async () => {
  files.closeAllConnections();
  await new Promise<void>((r) => files.close(() => r()));
  await proxy.stop();
  await server.stop();
});

describe('HTTPS_PROXY, as kubectl honours it', () => {
  it('kubectl (the reference) sends CONNECT kube.proxied.test:6443 through the proxy', async () => {
    const r = await kubectl(['get', 'namespaces', '-o', 'name'], { HTTPS_PROXY: proxy.url });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(new Set(proxy.tunnels)).toEqual(new Set([NAME]));
  });

  it('linkerd version reaches the same server through the same proxy', async () => {
    const r = await runCli(['version', '--kubeconfig', kubeconfig], { env: fenced({ HTTPS_PROXY: proxy.url }) });
    expect([r.code, r.stderr]).toEqual([0, '']);
    // No control plane in this cluster: the server version is unavailable, but asked for through the tunnel.
    expect(r.stdout).toBe('Client version: edge-26.9.1\nServer version: unavailable\n');
    expect(proxy.tunnels).toEqual([NAME]);
    expect(server.requests.at(-1)).toMatchObject({ path: '/api/v1/namespaces/linkerd/configmaps/linkerd-config' });
  });

  it('honours NO_PROXY: the same kubeconfig then fails as Go fails on an unknown name', async () => {
    // The version check goes to a loopback address, which is never proxied.
    const versionCheck = 'http://127.0.0.1:9/version.json';
    const r = await runCli(['check', '--pre', '-o', 'short', '--kubeconfig', kubeconfig], {
      env: fenced({ HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url, NO_PROXY: '.proxied.test', LINKERD_VERSIONCHECK_URL: versionCheck }),
    });
    expect(r.stdout).toContain(
      `× can query the Kubernetes API\n    Get "https://${NAME}/version?timeout=30s": dial tcp: lookup kube.proxied.test: no such host\n`,
    );
    expect(proxy.tunnels).toEqual([]);
    expect(proxy.forwarded).toEqual([]);
  });

  it('a proxy that is down or refuses the tunnel reads the same as in kubectl', async () => {
    const closed = await closedPort();
    const down = { HTTPS_PROXY: `http://127.0.0.1:${closed}` };
    const want = `proxyconnect tcp: dial tcp 127.0.0.1:${closed}: connect: connection refused`;
    expect((await kubectl(['get', 'namespaces'], down)).stderr).toContain(want);
    const ours = await runCli(['check', '--pre', '-o', 'short', '--kubeconfig', kubeconfig], {
      env: fenced({ ...down, LINKERD_VERSIONCHECK_URL: 'http://127.0.0.1:9/' }),
    });
    expect(ours.stdout).toContain(`Get "https://${NAME}/version?timeout=30s": ${want}\n`);

    const refusing = await startConnectProxy({ routes: {}, refuseWith: 403 });
    try {
      const theirs = await kubectl(['get', 'namespaces'], { HTTPS_PROXY: refusing.url });
      expect(theirs.stderr).toMatch(/: Forbidden\n$/);
      const r = await runCli(['check', '--pre', '-o', 'short', '--kubeconfig', kubeconfig], {
        env: fenced({ HTTPS_PROXY: refusing.url, LINKERD_VERSIONCHECK_URL: 'http://127.0.0.1:9/' }),
      });
      expect(r.stdout).toContain(`Get "https://${NAME}/version?timeout=30s": Forbidden\n`);
      expect(refusing.tunnels.every((t) => t === NAME)).toBe(true);
    } finally {
      await refusing.stop();
    }
  });

  it('trusts NODE_EXTRA_CA_CERTS through the tunnel when the kubeconfig has no CA', async () => {
    const apiCa = path.join(dir, 'api-ca.pem');
    fs.writeFileSync(apiCa, server.caPem);
    const noCa = writeKubeconfig(path.join(dir, 'no-ca.kubeconfig'), [
      { name: 'no-ca', server: `https://${NAME}`, token: server.token, tlsServerName: 'localhost' },
    ]);
    server.resetRequests();
    // node reads NODE_EXTRA_CA_CERTS when it starts: spawned.
    const r = await runCli(['version', '--kubeconfig', noCa], { env: fenced({ HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: apiCa }), spawn: true });
    expect([r.code, r.stderr, r.stdout]).toEqual([0, '', 'Client version: edge-26.9.1\nServer version: unavailable\n']);
    expect(proxy.tunnels).toEqual([NAME]);
    expect(server.requests.map((q) => q.path)).toEqual(['/api/v1/namespaces/linkerd/configmaps/linkerd-config']);
    // Without it, the same request fails verification inside the tunnel.
    // Spawned too: the check's requests that fail verification are still being retried when its
    // report is done, and in this process they would reach the proxy during the next test.
    const without = await runCli(['check', '--pre', '-o', 'short', '--kubeconfig', noCa], { env: fenced({ HTTPS_PROXY: proxy.url }), spawn: true });
    expect(without.stdout).toContain(
      `Get "https://${NAME}/version?timeout=30s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    );
  });

  it('linkerd inject fetches an https URL through the proxy, trusting NODE_EXTRA_CA_CERTS', async () => {
    const r = await runCli(
      ['inject', '--manual', '--ignore-cluster', '--identity-trust-anchors-file', 'fixtures/certs/valid-trust-anchors.pem', `https://${FILES}/shop.yaml`],
      // node reads NODE_EXTRA_CA_CERTS when it starts: spawned.
      { env: fenced({ HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: caFile }), spawn: true },
    );
    expect(r.stderr).toContain('deployment "web" injected');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('name: linkerd-proxy');
    expect(proxy.tunnels).toEqual([`${FILES}:443`]);
  });

  it('an inject URL that does not resolve, without a proxy, reads like Go', async () => {
    const r = await runCli(['inject', '--ignore-cluster', `https://${FILES}/shop.yaml`], { env: fenced({}) });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`Error: Get "https://${FILES}/shop.yaml": dial tcp: lookup ${FILES}: no such host\n`);
    expect(proxy.tunnels).toEqual([]);
  });
});
