import http from 'node:http';
import net from 'node:net';

/*
 * A forward proxy on 127.0.0.1 for tests: CONNECT tunnels (what kubectl and https clients send) and
 * absolute-form plain-http requests. It knows no DNS: each `host:port` a client asks for is mapped
 * by `routes` to a port on 127.0.0.1, and anything else is refused with 502, so no connection
 * leaves the machine and a name reaches its server only through the proxy.
 */

export interface TestProxy {
  url: string;
  port: number;
  /** CONNECT targets asked for, in order (`host:port`). */
  tunnels: string[];
  /** Absolute URLs of plain-http requests forwarded. */
  forwarded: string[];
  /** Proxy-Authorization headers received (CONNECT and forwarded). */
  authorizations: string[];
  stop(): Promise<void>;
}

export interface TestProxyOptions {
  /** `host:port` as clients ask for it → port on 127.0.0.1. */
  routes: Record<string, number>;
  /** Answer every CONNECT with this status instead (e.g. 403). */
  refuseWith?: number;
}

export async function startConnectProxy(opts: TestProxyOptions): Promise<TestProxy> {
  const tunnels: string[] = [];
  const forwarded: string[] = [];
  const authorizations: string[] = [];
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };
  const server = http.createServer((req, res) => {
    forwarded.push(req.url ?? '');
    if (req.headers['proxy-authorization']) authorizations.push(req.headers['proxy-authorization']);
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    const port = opts.routes[target.host];
    if (port === undefined) {
      res.writeHead(502).end();
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const up = http.request({ host: '127.0.0.1', port, method: req.method, path: `${target.pathname}${target.search}`, headers }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      upRes.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('connection', track);
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const asked = req.url ?? '';
    tunnels.push(asked);
    if (req.headers['proxy-authorization']) authorizations.push(req.headers['proxy-authorization']);
    const port = opts.routes[asked];
    if (opts.refuseWith !== undefined || port === undefined) {
      const status = opts.refuseWith ?? 502;
      client.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\n\r\n`);
      return;
    }
    const up = net.connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    track(up);
    up.on('error', () => client.destroy());
    client.on('error', () => up.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    tunnels,
    forwarded,
    authorizations,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
