import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/*
 * A read-only npm registry on loopback for the packaging test: packuments made from the
 * project's package-lock.json (so npm resolves exactly the locked versions), tarballs read from
 * the npm cache that `npm ci` filled (cacache's content-addressed layout, by integrity).
 * Nothing leaves the machine; a package the cache lacks is a 404.
 */

interface LockEntry {
  version?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  link?: boolean;
}

export interface LocalRegistry {
  url: string;
  /** Names whose packument npm asked for. */
  requested: Set<string>;
  stop(): Promise<void>;
}

function contentPath(cacheDir: string, integrity: string): string | undefined {
  const m = /^sha512-(.+)$/.exec(integrity.split(' ')[0] ?? '');
  if (!m?.[1]) return undefined;
  const hex = Buffer.from(m[1], 'base64').toString('hex');
  return path.join(cacheDir, '_cacache', 'content-v2', 'sha512', hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
}

export async function startLocalRegistry(lockFile: string, npmCacheDir: string): Promise<LocalRegistry> {
  const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { packages: Record<string, LockEntry> };
  const byName = new Map<string, Map<string, LockEntry>>();
  for (const [where, entry] of Object.entries(lock.packages)) {
    const i = where.lastIndexOf('node_modules/');
    if (i < 0 || entry.link || !entry.version || !entry.integrity) continue;
    const name = where.slice(i + 'node_modules/'.length);
    const versions = byName.get(name) ?? new Map<string, LockEntry>();
    versions.set(entry.version, entry);
    byName.set(name, versions);
  }
  const requested = new Set<string>();
  let base = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const tarball = /^\/-\/tarball\/(.+)\/([^/]+)\.tgz$/.exec(url.pathname);
    if (tarball?.[1] && tarball[2]) {
      const entry = byName.get(decodeURIComponent(tarball[1]))?.get(decodeURIComponent(tarball[2]));
      const file = entry?.integrity ? contentPath(npmCacheDir, entry.integrity) : undefined;
      try {
        if (!file) throw new Error('not cached');
        const body = readFileSync(file);
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
      } catch {
        res.writeHead(404).end();
      }
      return;
    }
    const name = decodeURIComponent(url.pathname.slice(1));
    const versions = byName.get(name);
    requested.add(name);
    if (!versions) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    const docs: Record<string, unknown> = {};
    for (const [version, e] of versions) {
      docs[version] = {
        name,
        version,
        dependencies: e.dependencies,
        optionalDependencies: e.optionalDependencies,
        peerDependencies: e.peerDependencies,
        peerDependenciesMeta: e.peerDependenciesMeta,
        bin: e.bin,
        engines: e.engines,
        os: e.os,
        cpu: e.cpu,
        dist: { tarball: `${base}-/tarball/${encodeURIComponent(name)}/${encodeURIComponent(version)}.tgz`, integrity: e.integrity },
      };
    }
    const latest = [...versions.keys()].pop() ?? '';
    const body = JSON.stringify({ name, 'dist-tags': { latest }, versions: docs });
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url: base,
    requested,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
