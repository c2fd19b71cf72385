import http from 'node:http';
import net from 'node:net';
import { runCheck, type CheckFamilyEntry, type CheckReport, type CheckRequest, type CoreCheckOptions } from '../../../../src/core/check/index.js';
import type { KubeObject } from '../../../../src/core/kube/resources.js';
import { LINKERD_VERSION } from '../../../../src/core/version.js';
import { virtualTime } from '../../../support/virtualTime.js';
import { startApiServer, type ApiServer, type ApiServerOptions } from '../../../support/apiserver.js';

function retryTime(): Pick<CheckRequest, 'clock' | 'sleep'> {
  const { clock, sleep } = virtualTime();
  return { clock, sleep };
}

/** A request with test-friendly defaults: no waiting, short timeouts, no internet, no extensions, virtual time for retries. */
export function request(kubeconfig: string, o: Partial<CheckRequest> = {}): CheckRequest {
  return {
    mode: 'default',
    kube: { kubeconfig, asGroup: [] },
    controlPlaneNamespace: 'linkerd',
    families: { core: { cniNamespace: 'linkerd-cni', cniEnabled: false } },
    cliVersion: LINKERD_VERSION,
    expectedVersion: LINKERD_VERSION,
    versionCheck: { url: 'http://127.0.0.1:9/version.json', timeoutMs: 500 },
    timeoutMs: 5_000,
    waitMs: 0,
    retryIntervalMs: 50,
    env: { HOME: '/nonexistent' },
    ...retryTime(),
    ...o,
  };
}

/** The core family's options slot of a request. */
export function core(o: CoreCheckOptions): Pick<CheckRequest, 'families'> {
  return { families: { core: { cniNamespace: 'linkerd-cni', cniEnabled: false, ...o } } };
}

export interface Served {
  server: ApiServer;
  report: CheckReport;
}

/** Serve the objects, run `check` against them (with these in-process extension families), stop the server. */
export async function checkAgainst(
  objects: object[],
  o: Partial<CheckRequest> = {},
  server: Partial<ApiServerOptions> = {},
  families: readonly CheckFamilyEntry[] = [],
): Promise<Served> {
  const api = await startApiServer({ objects, ...server });
  try {
    const report = await runCheck(request(api.kubeconfigPath, o), {}, families);
    return { server: api, report };
  } finally {
    await api.stop();
  }
}

/** The results as `<id> <status>[: <error>]` lines, handy for exact assertions. */
export function summary(report: CheckReport): string[] {
  return report.results.map((r) => `${r.id} ${r.status}${r.error ? `: ${r.error}` : ''}`);
}

export function result(report: CheckReport, id: string) {
  const r = report.results.find((x) => x.id === id);
  if (!r) throw new Error(`no result for ${id}; got ${report.results.map((x) => x.id).join(' ')}`);
  return r;
}

/** A loopback port nothing listens on (for unreachable-server cases). */
export async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** A loopback versioncheck endpoint answering `body` (or hanging when `hang`). */
export async function versionServer(body: object | 'hang'): Promise<{ url: string; stop(): Promise<void>; requests: string[] }> {
  const requests: string[] = [];
  const srv = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    if (body === 'hang') return;
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  const sockets = new Set<net.Socket>();
  srv.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/version.json`,
    requests,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => srv.close(() => r()));
    },
  };
}

export type { KubeObject };
