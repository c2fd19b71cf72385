import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { writeKubeconfig } from './apiserver-kubeconfig.js';

/*
 * A plain-HTTP API server on 127.0.0.1 that answers what a test's handler says, for answers the
 * real-shaped test server (apiserver.ts) would never give: lists whose items lie about their kind,
 * endless pages, bodies of `{}`. Unhandled paths are empty lists (or 404 for single objects).
 */

export interface HostileRequest {
  method: string;
  path: string;
  query: URLSearchParams;
}

/**
 * What to answer: a JSON value to send, `'handled'` when the handler wrote the response itself
 * (a streamed body), or undefined for the default answer.
 */
export type HostileHandler = (req: HostileRequest, res: http.ServerResponse) => unknown;

export interface HostileApiServer {
  url: string;
  kubeconfigPath: string;
  dir: string;
  /** Requests received so far. */
  requests: HostileRequest[];
  setHandler(h: HostileHandler): void;
  stop(): Promise<void>;
}

const isListPath = (p: string) => {
  const parts = p.split('/').filter(Boolean);
  // /api/v1/<plural>, /api/v1/namespaces/<ns>/<plural>, /apis/<g>/<v>/<plural>, …/namespaces/<ns>/<plural>
  const rest = parts[0] === 'api' ? parts.slice(2) : parts.slice(3);
  return rest.length === 1 || (rest.length === 3 && rest[0] === 'namespaces');
};

export async function startHostileApiServer(handler: HostileHandler = () => undefined): Promise<HostileApiServer> {
  let current = handler;
  const requests: HostileRequest[] = [];
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    const r: HostileRequest = { method: req.method ?? 'GET', path: u.pathname, query: u.searchParams };
    requests.push(r);
    const answer = current(r, res);
    if (answer === 'handled') return;
    if (answer !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
      return;
    }
    if (r.path === '/version') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ major: '1', minor: '34', gitVersion: 'v1.34.1' }));
      return;
    }
    if (isListPath(r.path)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'List', apiVersion: 'v1', metadata: {}, items: [] }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, message: `${r.path} not found` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l5d-hostile-api-'));
  const kubeconfigPath = writeKubeconfig(path.join(dir, 'config'), [{ name: 'hostile', server: url, token: 't' }]);
  return {
    url,
    kubeconfigPath,
    dir,
    requests,
    setHandler: (h) => {
      current = h;
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Streams `{"items":[{},{},…]}` of about `bytes` bytes without holding it in memory. */
export function writeDenseList(res: http.ServerResponse, bytes: number): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.from('{},'.repeat(1 << 16));
  let sent = 0;
  res.write('{"kind":"List","apiVersion":"v1","metadata":{},"items":[');
  const pump = () => {
    while (sent < bytes) {
      sent += chunk.length;
      if (!res.write(chunk)) return;
    }
    res.end('{}]}');
    res.off('drain', pump);
  };
  res.on('drain', pump);
  pump();
}
