import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

export interface Registry {
  /** host:port */
  address: string;
  stop: () => Promise<void>;
}

/** Debian's docker-registry (the distribution registry) on 127.0.0.1, optionally with htpasswd basic auth. */
export async function startRegistry(dir: string, auth?: { user: string; password: string }): Promise<Registry> {
  const port = await freePort();
  const lines = [
    'version: 0.1',
    'log: {level: error}',
    'storage:',
    `  filesystem: {rootdirectory: ${join(dir, 'storage')}}`,
    `http: {addr: "127.0.0.1:${port}"}`,
  ];
  if (auth) {
    const htpasswd = execFileSync('htpasswd', ['-Bbn', auth.user, auth.password], { encoding: 'utf8' });
    writeFileSync(join(dir, 'htpasswd'), htpasswd);
    lines.push('auth:', `  htpasswd: {realm: test, path: ${join(dir, 'htpasswd')}}`);
  }
  writeFileSync(join(dir, 'registry.yml'), `${lines.join('\n')}\n`);
  const child: ChildProcess = spawn('docker-registry', ['serve', join(dir, 'registry.yml')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const address = `127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const ok = await fetch(`http://${address}/v2/`).then(
      (r) => r.status === 200 || r.status === 401,
      () => false,
    );
    if (ok) break;
    if (i > 100 || child.exitCode !== null) throw new Error(`docker-registry did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    address,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/**
 * A loopback front for a registry that demands a bearer token (as Docker Hub and most cloud
 * registries do): 401 with a realm, a token for the right basic credentials, then pass-through.
 */
export async function startTokenProxy(
  upstream: string,
  user: string,
  password: string,
): Promise<{ address: string; tokensIssued: () => number; requests: string[]; stop: () => Promise<void> }> {
  let issued = 0;
  const requests: string[] = [];
  const token = 'test-token-123';
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/token') {
      const basic = Buffer.from(`${user}:${password}`).toString('base64');
      if (req.headers.authorization !== `Basic ${basic}` || !url.searchParams.get('scope')?.includes('push')) {
        res.writeHead(401).end();
        return;
      }
      issued++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token }));
      return;
    }
    if (req.headers.authorization !== `Bearer ${token}`) {
      const { port } = server.address() as AddressInfo;
      res.writeHead(401, { 'www-authenticate': `Bearer realm="http://127.0.0.1:${port}/token",service="test",scope="repository:x:pull,push"` }).end();
      req.resume();
      return;
    }
    requests.push(`${req.method ?? ''} ${url.pathname.replace(/[0-9a-f-]{36}/, 'UUID')}`);
    const [host, port] = upstream.split(':');
    const up = request({ host, port: Number(port), method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { address: `127.0.0.1:${port}`, tokensIssued: () => issued, requests, stop: () => new Promise((r) => server.close(() => r())) };
}
