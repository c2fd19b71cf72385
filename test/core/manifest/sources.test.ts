import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeManifest, isUrl, readManifestSources } from '../../../src/core/manifest/sources.js';

describe('readManifestSources', () => {
  let dir: string;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'l5d-sources-'));
    mkdirSync(path.join(dir, 'tree', 'b-sub'), { recursive: true });
    writeFileSync(path.join(dir, 'tree', 'c.yaml'), 'kind: C\n');
    writeFileSync(path.join(dir, 'tree', 'a.yml'), 'kind: A\n');
    writeFileSync(path.join(dir, 'tree', 'b-sub', 'z.txt'), 'kind: Z\n');
    writeFileSync(path.join(dir, 'tree', 'B.json'), '{"kind":"B"}');
    symlinkSync(path.join(dir, 'tree', 'c.yaml'), path.join(dir, 'tree', 'd-link.yaml'));
    server = createServer((req, res) => {
      if (req.url === '/deploy.yaml') res.end('kind: Deployment\n');
      else {
        res.statusCode = 404;
        res.end('nope');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('walks a directory recursively in lexical order, every regular file whatever its extension', async () => {
    const got = await readManifestSources([path.join(dir, 'tree')]);
    expect(got.map((s) => path.relative(dir, s.name))).toEqual([
      path.join('tree', 'B.json'),
      path.join('tree', 'a.yml'),
      path.join('tree', 'b-sub', 'z.txt'),
      path.join('tree', 'c.yaml'),
      path.join('tree', 'd-link.yaml'),
    ]);
  });

  it('reads - from standard input', async () => {
    const got = await readManifestSources(['-'], { stdin: async () => Buffer.from('kind: X\n') });
    expect(got).toEqual([{ name: '<stdin>', text: 'kind: X\n' }]);
  });

  it('fetches URLs; plain http only from loopback addresses', async () => {
    const got = await readManifestSources([`${base}/deploy.yaml`]);
    expect(got[0].text).toBe('kind: Deployment\n');
    await expect(readManifestSources(['http://example.com/x.yaml'])).rejects.toThrow('only HTTPS URLs are allowed');
    await expect(readManifestSources([`${base}/missing.yaml`])).rejects.toThrow(
      `unable to read URL "${base}/missing.yaml", server reported 404 Not Found, status code=404`,
    );
  });

  it('says in one line why an input cannot be read', async () => {
    await expect(readManifestSources([])).rejects.toThrow('please specify a kubernetes resource file');
    await expect(readManifestSources([path.join(dir, 'nope.yaml')])).rejects.toThrow(`stat ${path.join(dir, 'nope.yaml')}: no such file or directory`);
    await expect(readManifestSources(['https://127.0.0.1:1/x.yaml'])).rejects.toThrow(/^Get "https:\/\/127\.0\.0\.1:1\/x\.yaml": /);
  });

  it('refuses binary data and UTF-16', () => {
    expect(() => decodeManifest('x.png', Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 0]))).toThrow('x.png: binary data, not a YAML or JSON manifest');
    expect(() => decodeManifest('x.yaml', Uint8Array.from([0xc3, 0x28]))).toThrow('x.yaml: binary data, not a YAML or JSON manifest (not valid UTF-8)');
    expect(() => decodeManifest('w.yaml', Uint8Array.from([0xff, 0xfe, 0x6b, 0]))).toThrow('w.yaml: UTF-16 text is not supported; convert it to UTF-8');
    expect(decodeManifest('bom.yaml', Uint8Array.from([0xef, 0xbb, 0xbf, 0x61]))).toBe('\ufeffa');
  });

  it('recognises URLs the way the real CLI does', () => {
    expect(isUrl('https://x.example/a.yaml')).toBe(true);
    expect(isUrl('ftp://x.example/a')).toBe(true);
    expect(isUrl('deploy.yaml')).toBe(false);
    expect(isUrl('C:\\deploy.yaml')).toBe(false);
  });
});
