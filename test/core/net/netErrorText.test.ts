import '../../support/loopback-dns.mjs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchLatestVersions } from '../../../src/core/check/latestVersions.js';
import { KubeTransport } from '../../../src/core/kube/transport.js';
import { fetchUrl } from '../../../src/core/manifest/fetchUrl.js';
import { netErrorText } from '../../../src/core/net/netErrorText.js';
import { createServingCertificates } from '../../support/apiserver-certs.js';
import { closedPort } from '../check/support/run.js';

/*
 * Each failure is produced for real on 127.0.0.1 where it can be (refused connections, untrusted
 * certificates, fetch's refused ports, deadlines before and after the headers); a name that does not
 * resolve fails in this process's fenced resolver (support/loopback-dns), never in a real one.
 * Failures loopback cannot produce (unreachable networks, expired certificates) are checked on errors
 * shaped as Node raises them.
 */

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const s of stops.splice(0)) await s();
});

async function listen(server: http.Server | https.Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  stops.push(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return (server.address() as net.AddressInfo).port;
}

async function rejection(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(Error);
  return (e as Error).message;
}

describe('network errors in Go words', () => {
  it('connection refused: dial tcp ADDR: connect: connection refused', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/x.yaml`;
    expect(await rejection(fetchUrl(url))).toBe(`Get "${url}": dial tcp 127.0.0.1:${port}: connect: connection refused`);
  });

  it('unknown host: dial tcp: lookup HOST: no such host', async () => {
    const url = 'https://manifests.nowhere.test/x.yaml';
    expect(await rejection(fetchUrl(url))).toBe(`Get "${url}": dial tcp: lookup manifests.nowhere.test: no such host`);
  });

  it('a port fetch refuses (1, 6000, …) gets a sentence, not "bad port"', async () => {
    const message = await rejection(fetchUrl('http://127.0.0.1:1/x.yaml'));
    expect(message).toBe(
      `Get "http://127.0.0.1:1/x.yaml": port 1 is one that Node's fetch refuses to connect to (a "bad port" of the Fetch standard); serve the file on another port`,
    );
  });

  it("a port past 65535 is still a URL, refused as Go's dialer refuses it", async () => {
    expect(await rejection(fetchUrl('https://127.0.0.1:99999/x.yaml'))).toBe('Get "https://127.0.0.1:99999/x.yaml": dial tcp: address 99999: invalid port');
  });

  it('an untrusted certificate: x509: certificate signed by unknown authority', async () => {
    const certs = await createServingCertificates();
    const port = await listen(https.createServer({ cert: certs.certPem, key: certs.keyPem }, (_q, r) => r.end('x')));
    const url = `https://127.0.0.1:${port}/x.yaml`;
    expect(await rejection(fetchUrl(url))).toBe(`Get "${url}": tls: failed to verify certificate: x509: certificate signed by unknown authority`);
  });

  it('plain http on an https URL: server gave HTTP response to HTTPS client', async () => {
    const port = await listen(http.createServer((_q, r) => r.end('x')));
    const url = `https://127.0.0.1:${port}/x.yaml`;
    expect(await rejection(fetchUrl(url))).toBe(`Get "${url}": http: server gave HTTP response to HTTPS client`);
  });

  it('"awaiting headers" only before the headers; a stalled body says so', async () => {
    const stall = await listen(http.createServer(() => undefined));
    const url = `http://127.0.0.1:${stall}/x.yaml`;
    expect(await rejection(fetchUrl(url, { timeoutMs: 200 }))).toBe(`Get "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`);

    const half = await listen(http.createServer((_q, r) => r.writeHead(200, { 'Content-Length': '100' }).write('kind: ')));
    const url2 = `http://127.0.0.1:${half}/x.yaml`;
    expect(await rejection(fetchUrl(url2, { timeoutMs: 200 }))).toBe(
      `Get "${url2}": context deadline exceeded (Client.Timeout or context cancellation while reading body)`,
    );

    const transport = await KubeTransport.create(
      {
        cluster: { name: 'c', server: `http://127.0.0.1:${half}`, skipTLSVerify: false },
        user: { name: 'u' },
        context: { name: 'x', cluster: 'c', user: 'u' },
        contextName: 'x',
      } as Parameters<typeof KubeTransport.create>[0],
      { asGroup: [] },
      200,
    );
    expect(await rejection(transport.send({ method: 'GET', path: '/version' }))).toBe(
      `Get "http://127.0.0.1:${half}/version": context deadline exceeded (Client.Timeout or context cancellation while reading body)`,
    );
    transport.close();
  });

  it('an HTTP 500 names the URL', async () => {
    const port = await listen(http.createServer((_q, r) => r.writeHead(500).end()));
    await expect(fetchLatestVersions({ url: `http://127.0.0.1:${port}/version.json`, timeoutMs: 2_000, cliVersion: 'edge-26.9.1', uuid: 'u' })).rejects.toThrow(
      `unexpected versioncheck response from http://127.0.0.1:${port}/version.json: 500 Internal Server Error`,
    );
    await expect(fetchUrl(`http://127.0.0.1:${port}/x.yaml`)).rejects.toThrow(
      `unable to read URL "http://127.0.0.1:${port}/x.yaml", server reported 500 Internal Server Error, status code=500`,
    );
  });

  it('failures loopback cannot produce, on errors shaped as Node raises them', () => {
    const target = new URL('https://10.0.0.1:6443/version');
    const sys = (code: string, extra: object = {}) =>
      Object.assign(new Error(`connect ${code} 10.0.0.1:6443`), { code, address: '10.0.0.1', port: 6443, ...extra });
    const text = (e: unknown, proxy?: URL) => netErrorText(e, { target, proxy });
    expect(text(sys('EHOSTUNREACH'))).toEqual({ kind: 'unreachable', text: 'dial tcp 10.0.0.1:6443: connect: no route to host' });
    expect(text(sys('ENETUNREACH')).text).toBe('dial tcp 10.0.0.1:6443: connect: network is unreachable');
    expect(text(sys('ETIMEDOUT')).text).toBe('dial tcp 10.0.0.1:6443: i/o timeout');
    expect(text(Object.assign(new Error('getaddrinfo EAI_AGAIN kube.example'), { code: 'EAI_AGAIN', hostname: 'kube.example' })).text).toBe(
      'dial tcp: lookup kube.example: Temporary failure in name resolution',
    );
    expect(text(Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' }))).toEqual({
      kind: 'tls',
      text: 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid',
    });
    expect(text(Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' })).text).toBe(
      'tls: failed to verify certificate: x509: certificate signed by unknown authority',
    );
    expect(text(sys('ECONNREFUSED', { address: '10.9.9.9', port: 3128 }), new URL('http://proxy.corp:3128')).text).toBe(
      'proxyconnect tcp: dial tcp 10.9.9.9:3128: connect: connection refused',
    );
    expect(text(Object.assign(new Error('connect ECONNREFUSED ::1:6443'), { code: 'ECONNREFUSED', address: '::1', port: 6443 })).text).toBe(
      'dial tcp [::1]:6443: connect: connection refused',
    );
    expect(text(new Error('Proxy response (407) !== 200 when HTTP Tunneling')).text).toBe('Proxy Authentication Required');
  });
});
