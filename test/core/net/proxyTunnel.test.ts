import '../../support/loopback-dns.mjs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fetchLatestVersions } from '../../../src/core/check/latestVersions.js';
import { connectKube } from '../../../src/core/kube/kubeClient.js';
import { createUnrelatedCaPem } from '../../support/apiserver-certs.js';
import { startApiServer, writeKubeconfig, type ApiServer } from '../../support/apiserver.js';
import { startConnectProxy, type TestProxy } from '../../support/connectProxy.js';
import { closedPort } from '../check/support/run.js';

/*
 * The API server listens on 127.0.0.1 and its certificate names `localhost`. The kubeconfig calls it
 * `kube.proxied.test:6443`, a name only the test proxy knows (it maps the CONNECT target to the
 * server); this process resolves no name but localhost (support/loopback-dns), so a request that
 * skipped the proxy fails with ENOTFOUND instead of leaving the machine.
 */
const NAME = 'kube.proxied.test:6443';
const PROXY_ENV = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];

describe('outbound requests through HTTPS_PROXY / HTTP_PROXY', () => {
  let server: ApiServer;
  let proxy: TestProxy;
  const saved = Object.fromEntries(PROXY_ENV.map((k) => [k, process.env[k]]));
  const stops: Array<() => Promise<void>> = [];
  const kubeconfig = (name: string, extra: { caPem?: string; proxyUrl?: string } = {}) =>
    writeKubeconfig(path.join(server.dir, `${name}.kubeconfig`), [
      { name, server: `https://${NAME}`, caPem: extra.caPem ?? server.caPem, token: server.token, tlsServerName: 'localhost', proxyUrl: extra.proxyUrl },
    ]);

  beforeAll(async () => {
    server = await startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml' });
    proxy = await startConnectProxy({ routes: { [NAME]: server.port } });
  });
  afterEach(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    proxy.tunnels.length = 0;
    proxy.forwarded.length = 0;
    for (const s of stops.splice(0)) await s();
  });
  afterAll(async () => {
    await proxy.stop();
    await server.stop();
  });

  it('reaches the API server through a CONNECT tunnel, verifying its certificate with the kubeconfig CA inside it', async () => {
    process.env.HTTPS_PROXY = proxy.url;
    const client = await connectKube({ kubeconfig: kubeconfig('tunnel'), asGroup: [] });
    expect((await client.serverVersion()).gitVersion).toBe('v1.34.1');
    await client.serverVersion();
    client.close();
    // Keep-alive: both requests share one tunnel.
    expect(proxy.tunnels).toEqual([NAME]);
    expect(server.requests.at(-1)?.path).toBe('/version');
  });

  it('uses the lower-case https_proxy too', async () => {
    process.env.https_proxy = proxy.url;
    const client = await connectKube({ kubeconfig: kubeconfig('lower'), asGroup: [] });
    expect((await client.serverVersion()).gitVersion).toBe('v1.34.1');
    client.close();
    expect(proxy.tunnels).toEqual([NAME]);
  });

  it('goes direct for a NO_PROXY host (and then this name does not resolve: Go wording)', async () => {
    process.env.HTTPS_PROXY = proxy.url;
    process.env.NO_PROXY = '.proxied.test';
    const client = await connectKube({ kubeconfig: kubeconfig('noproxy'), asGroup: [] });
    await expect(client.serverVersion()).rejects.toThrow(`Get "https://${NAME}/version": dial tcp: lookup kube.proxied.test: no such host`);
    client.close();
    expect(proxy.tunnels).toEqual([]);
  });

  it('lets the kubeconfig proxy-url win over HTTPS_PROXY', async () => {
    const other = await startConnectProxy({ routes: { [NAME]: server.port } });
    stops.push(() => other.stop());
    process.env.HTTPS_PROXY = other.url;
    const client = await connectKube({ kubeconfig: kubeconfig('proxy-url', { proxyUrl: proxy.url }), asGroup: [] });
    expect((await client.serverVersion()).gitVersion).toBe('v1.34.1');
    client.close();
    expect(proxy.tunnels).toEqual([NAME]);
    expect(other.tunnels).toEqual([]);
  });

  it('still refuses a certificate from another CA through the tunnel', async () => {
    process.env.HTTPS_PROXY = proxy.url;
    const client = await connectKube({ kubeconfig: kubeconfig('wrong-ca', { caPem: await createUnrelatedCaPem() }), asGroup: [] });
    await expect(client.serverVersion()).rejects.toThrow(
      `Get "https://${NAME}/version": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    );
    client.close();
    expect(proxy.tunnels).toEqual([NAME]);
  });

  it('reports a proxy that refuses the tunnel, and a proxy that is down, as Go does', async () => {
    const refusing = await startConnectProxy({ routes: {}, refuseWith: 403 });
    stops.push(() => refusing.stop());
    process.env.HTTPS_PROXY = refusing.url;
    const client = await connectKube({ kubeconfig: kubeconfig('refused'), asGroup: [] });
    await expect(client.serverVersion()).rejects.toThrow(`Get "https://${NAME}/version": Forbidden`);
    client.close();
    expect(refusing.tunnels).toEqual([NAME]);

    const closed = await closedPort();
    process.env.HTTPS_PROXY = `127.0.0.1:${closed}`;
    const down = await connectKube({ kubeconfig: kubeconfig('down'), asGroup: [] });
    await expect(down.serverVersion()).rejects.toThrow(
      `Get "https://${NAME}/version": proxyconnect tcp: dial tcp 127.0.0.1:${closed}: connect: connection refused`,
    );
    down.close();
  });

  it('sends proxy credentials from the proxy URL as Proxy-Authorization: Basic', async () => {
    process.env.HTTPS_PROXY = `http://user:s%3Acret@127.0.0.1:${proxy.port}`;
    const client = await connectKube({ kubeconfig: kubeconfig('auth'), asGroup: [] });
    await client.serverVersion();
    client.close();
    expect(proxy.authorizations.at(-1)).toBe(`Basic ${Buffer.from('user:s:cret').toString('base64')}`);
  });

  it('sends the version check through HTTP_PROXY in absolute form, as Go does for http URLs', async () => {
    const versions = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"edge":"edge-26.9.2"}'));
    await new Promise<void>((r) => versions.listen(0, '127.0.0.1', () => r()));
    stops.push(() => new Promise<void>((r) => versions.close(() => r())));
    const forward = await startConnectProxy({ routes: { 'versioncheck.proxied.test': (versions.address() as net.AddressInfo).port } });
    stops.push(() => forward.stop());
    process.env.HTTP_PROXY = `http://ops@127.0.0.1:${forward.port}`;
    const latest = await fetchLatestVersions({ url: 'http://versioncheck.proxied.test/version.json', timeoutMs: 5_000, cliVersion: 'edge-26.9.1', uuid: 'u' });
    expect(latest.mismatch('edge-26.9.1')).toBe('is running version 26.9.1 but the latest edge version is 26.9.2');
    expect(forward.forwarded).toEqual(['http://versioncheck.proxied.test/version.json?version=edge-26.9.1&uuid=u&source=cli']);
    expect(forward.tunnels).toEqual([]);
    // A user without a password is still sent, as Go sends it.
    expect(forward.authorizations).toEqual([`Basic ${Buffer.from('ops:').toString('base64')}`]);
  });

  it('sends the version check for an https URL through a CONNECT tunnel', async () => {
    process.env.HTTPS_PROXY = proxy.url;
    // The API server is no versioncheck service: what matters is that the request went through the tunnel.
    await expect(fetchLatestVersions({ url: `https://${NAME}/version.json`, timeoutMs: 5_000, cliVersion: 'edge-26.9.1', uuid: 'u' })).rejects.toThrow(
      /^Get "https:\/\/kube\.proxied\.test:6443\/version\.json\?.*": tls: failed to verify certificate: x509: certificate (signed by unknown authority|is valid for localhost, 127\.0\.0\.1, not kube\.proxied\.test)$/,
    );
    expect(proxy.tunnels).toEqual([NAME]);
  });
});
