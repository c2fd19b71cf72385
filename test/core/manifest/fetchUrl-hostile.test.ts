import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REDIRECTS, fetchUrl } from '../../../src/core/manifest/fetchUrl.js';
import type { InputLimit } from '../../../src/core/input/limits.js';
import { fakeFetch } from '../../support/fakeFetch.js';

/*
 * Issue 10 items 3 and 8: URL bodies are bounded after decoding, and every redirect hop is held to
 * the https-only rule before anything connects to it. Off-loopback hops are answered by a stand-in
 * fetch that records what was asked, so nothing here leaves the machine.
 */

const redirect = (to: string, status = 302) => new Response(null, { status, headers: { location: to } });

describe('redirects are checked hop by hop (issue 10 item 8)', () => {
  for (const target of ['http://example.com/evil.yaml', 'http://0.0.0.0/evil.yaml', 'http://10.0.0.1/evil.yaml', 'ftp://127.0.0.1/x']) {
    it(`an https URL redirecting to ${target} is refused before connecting to it`, async () => {
      const { f, asked } = fakeFetch((u) => (u === 'https://charts.example/v.yaml' ? redirect(target) : new Response('reached')));
      await expect(fetchUrl('https://charts.example/v.yaml', { fetch: f })).rejects.toThrow(
        `Get "${new URL(target).href}" (redirected from "https://charts.example/v.yaml"): only HTTPS URLs are allowed (plain http only to a loopback host)`,
      );
      expect(asked).toEqual(['https://charts.example/v.yaml']);
    });
  }

  it('the third hop is checked as well as the first', async () => {
    const hops: Record<string, Response> = {
      'https://a.example/1': redirect('https://b.example/2', 301),
      'https://b.example/2': redirect('/3', 307),
      'https://b.example/3': redirect('http://c.example/4', 308),
    };
    const { f, asked } = fakeFetch((u) => hops[u] ?? new Response('reached'));
    await expect(fetchUrl('https://a.example/1', { fetch: f })).rejects.toThrow(/^Get "http:\/\/c\.example\/4" \(redirected from "https:\/\/b\.example\/3"\)/);
    expect(asked).toEqual(['https://a.example/1', 'https://b.example/2', 'https://b.example/3']);
  });

  it('follows allowed redirects, up to the limit', async () => {
    const ok = fakeFetch((u) => (u.endsWith('/start') ? redirect('https://x.example/end') : new Response('kind: Pod\n')));
    expect(new TextDecoder().decode(await fetchUrl('https://x.example/start', { fetch: ok.f }))).toBe('kind: Pod\n');
    let n = 0;
    const loop = fakeFetch(() => redirect(`https://x.example/${++n}`));
    await expect(fetchUrl('https://x.example/0', { fetch: loop.f })).rejects.toThrow(`stopped after ${MAX_REDIRECTS} redirects`);
    expect(loop.asked).toHaveLength(MAX_REDIRECTS + 1);
  });
});

describe('URL bodies are bounded after decoding (issue 10 item 3)', () => {
  let server: http.Server;
  let base: string;
  const plain = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: zipped\n';
  // 2.5 GiB of zeros as 2560 concatenated gzip members of 1 MiB each: about 2.6 MB on the wire.
  let bomb: Buffer;

  beforeAll(async () => {
    const member = zlib.gzipSync(Buffer.alloc(1 << 20), { level: 9 });
    bomb = Buffer.concat(Array(2560).fill(member));
    server = http.createServer((req, res) => {
      if (req.url === '/gzip') res.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync(plain));
      else if (req.url === '/deflate') res.writeHead(200, { 'content-encoding': 'deflate' }).end(zlib.deflateSync(plain));
      else if (req.url === '/bomb') res.writeHead(200, { 'content-encoding': 'gzip' }).end(bomb);
      else if (req.url === '/endless') {
        res.writeHead(200);
        const chunk = Buffer.alloc(1 << 16, 'a');
        const pump = () => {
          while (res.write(chunk));
        };
        res.on('drain', pump);
        res.on('close', () => res.off('drain', pump));
        pump();
      } else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const small: InputLimit = { bytes: 4 * 1024 * 1024, what: 'test inputs' };

  it('decodes gzip and deflate bodies', async () => {
    for (const enc of ['gzip', 'deflate']) {
      expect(new TextDecoder().decode(await fetchUrl(`${base}/${enc}`, { limit: small }))).toBe(plain);
    }
  });

  it('stops an endless body at the limit', async () => {
    await expect(fetchUrl(`${base}/endless`, { limit: small })).rejects.toThrow(`${base}/endless: larger than the 4 MiB limit for test inputs`);
  });

  it(`stops a gzip bomb at the limit after decoding, without inflating it`, async () => {
    expect(bomb.length).toBeLessThan(8 * 1024 * 1024);
    const before = process.memoryUsage().rss;
    await expect(fetchUrl(`${base}/bomb`, { limit: small })).rejects.toThrow(`${base}/bomb: larger than the 4 MiB limit for test inputs`);
    expect(process.memoryUsage().rss - before).toBeLessThan(512 * 1024 * 1024);
  });
});
