import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';

/** Where a pod's port is served on this machine (a loopback listener playing the container). */
export type PortForwardTarget = (namespace: string, pod: string, port: number) => { host: string; port: number } | undefined;

const PROTOCOL = 'v4.channel.k8s.io';
const PATH = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/portforward$/;

/** A plain HTTP answer on a socket that asked to upgrade, then closed. */
function refuse(socket: Duplex, code: number, message: string): void {
  const body = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code });
  socket.end(
    `HTTP/1.1 ${code} ${code === 404 ? 'Not Found' : code === 401 ? 'Unauthorized' : 'Bad Request'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

const portBytes = (port: number) => Buffer.from([port & 0xff, port >> 8]);

/**
 * The API server's pod port-forward over WebSocket, in the channel protocol client-node and
 * this CLI speak (`v4.channel.k8s.io`): one port per request, channel 0 data and 1 errors, each
 * channel's first frame carrying the port. Bytes go to `target`.
 * kubectl (1.32) is not served: it asks for `SPDY/3.1+portforward.k8s.io` over WebSocket (SPDY
 * frames tunnelled in WebSocket messages, ports in SPDY stream headers), then falls back to a
 * plain `SPDY/3.1` upgrade; both need SPDY framing, which this server does not implement.
 */
export function portForwardHandler(opts: {
  authorized: (req: IncomingMessage) => boolean;
  podExists: (namespace: string, pod: string) => boolean;
  target: () => PortForwardTarget | undefined;
  record: (req: IncomingMessage) => void;
}): { upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void; close: () => void } {
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (protocols) => (protocols.has(PROTOCOL) ? PROTOCOL : false) });
  const open = new Set<WebSocket>();
  const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    opts.record(req);
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    const m = PATH.exec(url.pathname);
    if (!opts.authorized(req)) {
      refuse(socket, 401, 'Unauthorized');
      return;
    }
    if (!m?.[1] || !m[2]) {
      refuse(socket, 404, 'the server could not find the requested resource');
      return;
    }
    const [namespace, pod] = [decodeURIComponent(m[1]), decodeURIComponent(m[2])];
    if (!opts.podExists(namespace, pod)) {
      refuse(socket, 404, `pods "${pod}" not found`);
      return;
    }
    const ports = (url.searchParams.get('ports') ?? '').split(',').filter((p) => p !== '');
    const port = Number(ports[0]);
    if (ports.length !== 1 || !Number.isInteger(port) || port < 1 || port > 65535) {
      refuse(socket, 400, 'exactly one port is served by the test API server');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      open.add(ws);
      ws.on('close', () => open.delete(ws));
      ws.send(Buffer.concat([Buffer.from([0]), portBytes(port)]));
      ws.send(Buffer.concat([Buffer.from([1]), portBytes(port)]));
      const where = opts.target()?.(namespace, pod, port);
      const fail = (why: string) => {
        ws.send(Buffer.concat([Buffer.from([1]), Buffer.from(`error forwarding port ${port} to pod ${pod}: ${why}`)]), () => ws.close());
      };
      if (!where) {
        fail('nothing listens on that port');
        return;
      }
      const upstream = net.connect(where.port, where.host);
      upstream.on('data', (chunk: Buffer) => ws.send(Buffer.concat([Buffer.from([0]), chunk])));
      upstream.on('end', () => ws.close());
      upstream.on('error', (e) => fail(e.message));
      ws.on('message', (data: Buffer) => {
        if (data[0] === 0) upstream.write(data.subarray(1));
      });
      ws.on('close', () => upstream.destroy());
    });
  };
  return {
    upgrade,
    close: () => {
      for (const ws of open) ws.terminate();
      wss.close();
    },
  };
}
