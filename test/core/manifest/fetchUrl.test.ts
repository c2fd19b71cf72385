import { describe, expect, it } from 'vitest';
import { fetchUrl, isFetchableUrl } from '../../../src/core/manifest/fetchUrl.js';
import { fakeFetch } from '../../support/fakeFetch.js';

describe('fetchUrl (inject inputs and -f values files)', () => {
  it('fetches https anywhere, plain http only from loopback hosts', () => {
    expect(isFetchableUrl('https://charts.example/values.yaml')).toBe(true);
    for (const ok of ['http://127.0.0.1:8080/v.yaml', 'http://127.9.9.9/v.yaml', 'http://localhost/v.yaml', 'http://[::1]:80/v.yaml']) {
      expect([ok, isFetchableUrl(ok)]).toEqual([ok, true]);
    }
    for (const refused of ['http://example.com/v.yaml', 'http://10.0.0.1/v.yaml', 'http://localhost.example.com/v.yaml', 'ftp://127.0.0.1/v.yaml']) {
      expect([refused, isFetchableUrl(refused)]).toEqual([refused, false]);
    }
  });

  it('returns the body bytes of a 200 answer', async () => {
    const { f, asked } = fakeFetch(() => new Response('kind: Pod\n'));
    const bytes = await fetchUrl('https://x.example/pod.yaml', { fetch: f });
    expect(new TextDecoder().decode(bytes)).toBe('kind: Pod\n');
    expect(asked).toEqual(['https://x.example/pod.yaml']);
  });

  it('refuses before any request with the real CLI message', async () => {
    const { f, asked } = fakeFetch(() => new Response(''));
    await expect(fetchUrl('http://example.com/x.yaml', { fetch: f })).rejects.toThrow(/^only HTTPS URLs are allowed$/);
    expect(asked).toEqual([]);
  });

  it('names the URL in network errors and non-200 answers', async () => {
    const dns = fakeFetch(() => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } });
    });
    await expect(fetchUrl('https://nowhere.example/x.yaml', { fetch: dns.f })).rejects.toThrow(
      /^Get "https:\/\/nowhere\.example\/x\.yaml": dial tcp: lookup nowhere\.example: no such host$/,
    );
    const gone = fakeFetch(() => new Response('', { status: 410, statusText: 'Gone' }));
    await expect(fetchUrl('https://x.example/x.yaml', { fetch: gone.f })).rejects.toThrow(
      'unable to read URL "https://x.example/x.yaml", server reported 410 Gone, status code=410',
    );
  });
});
