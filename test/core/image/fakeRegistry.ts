import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';

/*
 * A scriptable distribution registry on 127.0.0.1 with a second listener on another port — another
 * origin — that stores uploads too and can serve tokens. Every request is recorded with the
 * listener it reached and its Authorization header, so a test can say exactly who got what.
 */

export interface Seen {
  at: 'registry' | 'other';
  method: string;
  path: string;
  authorization?: string;
}

export interface FakeOptions {
  /** Basic with this user:password, or bearer with a realm (built from the listeners' addresses) and the token it issues. */
  auth?: { basic: string } | { realm: (registry: string, other: string) => string; basic: string; token: string };
  /** Upload Locations point at the other listener. */
  uploadsElsewhere?: boolean;
  /** A blob PUT is first answered with a redirect (307 unless `redirectStatus` says) to this URL. */
  redirectPut?: (registry: string, other: string) => string;
  redirectStatus?: number;
}

export interface FakeRegistry {
  address: string;
  other: string;
  seen: Seen[];
  stop: () => Promise<void>;
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of req as AsyncIterable<Buffer>) parts.push(c);
  return Buffer.concat(parts);
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function startFakeRegistry(o: FakeOptions = {}): Promise<FakeRegistry> {
  const seen: Seen[] = [];
  const blobs = new Map<string, Buffer>();
  const uploads = new Map<string, Buffer[]>();
  let ids = 0;
  const addr = { registry: '', other: '' };
  const expected = o.auth && 'token' in o.auth ? `Bearer ${o.auth.token}` : o.auth ? `Basic ${Buffer.from(o.auth.basic).toString('base64')}` : undefined;

  const handle = async (at: Seen['at'], req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push({ at, method: req.method ?? '', path: url.pathname, authorization: req.headers.authorization });
    const data = await body(req);
    if (url.pathname === '/token') {
      const auth = o.auth && 'token' in o.auth ? o.auth : undefined;
      if (!auth || req.headers.authorization !== `Basic ${Buffer.from(auth.basic).toString('base64')}`) return res.writeHead(401).end();
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token: auth.token }));
    }
    if (at === 'registry' && expected && req.headers.authorization !== expected) {
      const challenge = o.auth && 'token' in o.auth ? `Bearer realm="${o.auth.realm(addr.registry, addr.other)}",service="fake"` : 'Basic realm="fake"';
      return res.writeHead(401, { 'www-authenticate': challenge }).end();
    }
    const m = /^\/v2\/(.+)\/(blobs|manifests)\/(.+)$/.exec(url.pathname);
    if (!m) return res.writeHead(url.pathname === '/v2/' ? 200 : 404).end();
    const [, repo, kind, rest] = m;
    if (kind === 'blobs' && req.method === 'HEAD') return res.writeHead(blobs.has(rest ?? '') ? 200 : 404).end();
    if (kind === 'blobs' && req.method === 'POST' && rest === 'uploads/') {
      const id = String(++ids);
      uploads.set(id, []);
      const loc = `/v2/${repo}/blobs/uploads/${id}`;
      return res.writeHead(202, { location: o.uploadsElsewhere ? `http://${addr.other}${loc}` : loc }).end();
    }
    const up = /^uploads\/(\d+)$/.exec(rest ?? '');
    if (kind === 'blobs' && up?.[1] && uploads.has(up[1])) {
      const parts = uploads.get(up[1]) ?? [];
      if (req.method === 'PUT' && o.redirectPut && !url.searchParams.has('redirected')) {
        return res
          .writeHead(o.redirectStatus ?? 307, { location: `${o.redirectPut(addr.registry, addr.other)}${url.pathname}${url.search}&redirected=1` })
          .end();
      }
      parts.push(data);
      if (req.method === 'PATCH') return res.writeHead(202, { location: url.pathname }).end();
      const all = Buffer.concat(parts);
      const digest = `sha256:${createHash('sha256').update(all).digest('hex')}`;
      if (digest !== url.searchParams.get('digest')) return res.writeHead(400).end('digest mismatch');
      blobs.set(digest, all);
      uploads.delete(up[1]);
      return res.writeHead(201).end();
    }
    if (kind === 'manifests' && req.method === 'PUT') return res.writeHead(201).end();
    return res.writeHead(404).end();
  };
  const serve = (at: Seen['at']) =>
    createServer((req, res) => {
      handle(at, req, res).catch(() => res.writeHead(500).end());
    });
  const registry = serve('registry');
  const other = serve('other');
  addr.registry = await listen(registry);
  addr.other = await listen(other);
  const close = (s: Server) => new Promise<void>((r) => s.close(() => r()));
  return {
    address: addr.registry,
    other: addr.other,
    seen,
    stop: async () => {
      registry.closeAllConnections();
      other.closeAllConnections();
      await Promise.all([close(registry), close(other)]);
    },
  };
}
