import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prometheusAt } from '../../../src/families/viz/prometheus/client.js';
import { startApiServer, type ApiServer, type StoredObject } from '../../support/apiserver.js';
import { runCli, type CliResult } from '../../support/cli.js';
import { freePort, startExporter, startPrometheus, type GrowingSeries, type Prometheus } from '../../support/prometheus.js';
import { clusterWithViz } from './cluster.js';

/*
 * `viz stat-inbound` and `stat-outbound` against a real Prometheus scraping loopback "proxies":
 * the rows come from Prometheus' own evaluation of the commands' PromQL. Counts are increase()
 * over the window, which Prometheus extrapolates, so rates that are not 0% or 100% are compared
 * with a tolerance; everything else (names, servers, routes, the tree, latencies) exactly.
 */

const WEB = { namespace: 'emojivoto', deployment: 'web', pod: 'web-6d4f8-x2x9z' };
const inbound = (labels: Record<string, string>, step: number, owner = WEB): GrowingSeries => ({
  name: 'response_total',
  labels: { ...owner, direction: 'inbound', ...labels },
  step,
});
const BOOKS = { srv_kind: 'server', srv_name: 'web-http', route_kind: 'HTTPRoute', route_name: 'books', target_port: '8080' };
const DEFAULT_ROUTE = { srv_kind: 'default', srv_name: 'all-unauthenticated', route_kind: 'default', route_name: 'default', target_port: '4191' };
const bucket = (name: string, labels: Record<string, string>, le: string, step: number): GrowingSeries => ({ name, labels: { ...labels, le }, step });

const BOOKS_ROUTE = { ...WEB, parent_name: 'books', parent_port: '7002', route_name: 'books-route', route_kind: 'HTTPRoute' };
const EMOJI_ROUTE = { ...WEB, parent_name: 'emoji', parent_port: '8080', route_name: 'default', route_kind: 'default' };

const SERIES: GrowingSeries[] = [
  // Inbound: the books route always succeeds, 50/95/99 ms; the default route always fails, no latencies.
  inbound({ ...BOOKS, classification: 'success', status_code: '200' }, 600),
  inbound({ ...BOOKS, classification: 'failure', status_code: '500' }, 0),
  inbound({ ...DEFAULT_ROUTE, classification: 'failure', status_code: '403' }, 300),
  ...['100', '1000', '+Inf'].map((le) => bucket('response_latency_ms_bucket', { ...WEB, direction: 'inbound', ...BOOKS }, le, 600)),
  ...['100', '+Inf'].map((le) => bucket('response_latency_ms_bucket', { ...WEB, direction: 'inbound', ...DEFAULT_ROUTE }, le, 0)),
  // Other workloads' traffic, which the deploy/web queries must not count.
  inbound({ ...BOOKS, classification: 'success' }, 600, { ...WEB, deployment: 'vote', pod: 'vote-1' }),
  inbound({ ...BOOKS, classification: 'failure' }, 600, { ...WEB, namespace: 'other' }),
  // Outbound HTTP: 90% success on the route (10% timeouts), 100 retries per 1000; two backends.
  { name: 'outbound_http_route_request_statuses_total', labels: { ...BOOKS_ROUTE, http_status: '200' }, step: 900 },
  { name: 'outbound_http_route_request_statuses_total', labels: { ...BOOKS_ROUTE, error: 'REQUEST_TIMEOUT' }, step: 100 },
  { name: 'outbound_http_route_retry_requests_total', labels: BOOKS_ROUTE, step: 100 },
  ...['0.1', '+Inf'].map((le) => bucket('outbound_http_route_request_duration_seconds_bucket', BOOKS_ROUTE, le, 1000)),
  {
    name: 'outbound_http_route_backend_response_statuses_total',
    labels: { ...BOOKS_ROUTE, backend_name: 'books-v1', backend_port: '7002', http_status: '200' },
    step: 500,
  },
  {
    name: 'outbound_http_route_backend_response_statuses_total',
    labels: { ...BOOKS_ROUTE, backend_name: 'books-v2', backend_port: '7002', http_status: '200' },
    step: 400,
  },
  {
    name: 'outbound_http_route_backend_response_statuses_total',
    labels: { ...BOOKS_ROUTE, backend_name: 'books-v2', backend_port: '7002', http_status: '503' },
    step: 100,
  },
  ...['0.1', '+Inf'].map((le) =>
    bucket('outbound_http_route_backend_response_duration_seconds_bucket', { ...BOOKS_ROUTE, backend_name: 'books-v1', backend_port: '7002' }, le, 500),
  ),
  // Outbound gRPC: the default route, one backend, all OK.
  { name: 'outbound_grpc_route_request_statuses_total', labels: { ...EMOJI_ROUTE, grpc_status: 'OK' }, step: 500 },
  {
    name: 'outbound_grpc_route_backend_response_statuses_total',
    labels: { ...EMOJI_ROUTE, backend_name: 'emoji', backend_port: '8080', grpc_status: 'OK' },
    step: 500,
  },
];

let prom: Prometheus;
let exporter: Awaited<ReturnType<typeof startExporter>>;
const servers: ApiServer[] = [];
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  exporter = await startExporter(SERIES);
  prom = await startPrometheus([exporter.target]);
  // Four scrapes at least: increase() and irate() need two samples each, and the steps to show.
  await prom.waitFor('count_over_time(response_total{deployment="web",namespace="emojivoto",srv_name="web-http",classification="success"}[1m])', (v) => v >= 4);
}, 60_000);

afterAll(async () => {
  for (const s of servers.splice(0)) await s.stop();
  for (const c of closers.splice(0)) await c();
  await prom.stop();
  await exporter.close();
});

const run = (args: string[]): Promise<CliResult> => runCli(args, { env: { HOME: '/nonexistent' } });

/** The table's lines split into cells (two or more spaces apart), header first. */
const cells = (table: string) =>
  table
    .trimEnd()
    .split('\n')
    .map((l) => l.trim().split(/ {2,}/));

const percent = (s: string) => Number(s.replace(/%$/, ''));

describe('linkerd viz stat-inbound (real Prometheus)', () => {
  it('answers with the servers and routes of deploy/web, success rates and latency quantiles', async () => {
    const r = await run(['viz', 'stat-inbound', 'deploy/web', '-n', 'emojivoto', '--prometheusURL', prom.url]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^NAME {2}SERVER {9,}ROUTE {6,}TYPE {7,}SUCCESS {2}\s*RPS {2}LATENCY_P50 {2}LATENCY_P95 {2}LATENCY_P99 {2}$/);
    const rows = cells(r.stdout);
    expect(rows[0]).toEqual(['NAME', 'SERVER', 'ROUTE', 'TYPE', 'SUCCESS', 'RPS', 'LATENCY_P50', 'LATENCY_P95', 'LATENCY_P99']);
    // Sorted by name, then server: `[default]` sorts before `web-http`. The default route's type is blank.
    expect(rows).toHaveLength(3);
    expect(rows[1]).toEqual(['web', '[default]:4191', '[default]', '0.00%', expect.stringMatching(/^\d+\.\d\d$/), '-', '-', '-']);
    expect(rows[2]).toEqual(['web', 'web-http:8080', 'books', 'HTTPRoute', '100.00%', expect.stringMatching(/^\d+\.\d\d$/), '50ms', '95ms', '99ms']);
    expect(Number(rows[2]?.[5])).toBeGreaterThan(0);
    // Twice the traffic on books as on the default route.
    expect(Number(rows[2]?.[5]) / Number(rows[1]?.[4])).toBeCloseTo(2, 0);
  });

  it('-o json: the compact array of the real command (null latencies for NaN)', async () => {
    const r = await run(['viz', 'stat-inbound', 'deploy/web', '-n', 'emojivoto', '-o', 'json', '-t', '30s', '--prometheusURL', prom.url]);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    const rows = (JSON.parse(r.stdout) as Array<Record<string, unknown>>).sort((a, b) => String(a.server).localeCompare(String(b.server)));
    expect(rows.map((x) => Object.keys(x))).toEqual(
      Array(2).fill(['name', 'server', 'port', 'route', 'routeType', 'successesRate', 'rps', 'latencyMsP50', 'latencyMsP95', 'latencyMsP99']),
    );
    expect(rows[0]).toMatchObject({ name: 'web', server: '[default]', port: '4191', route: '[default]', routeType: '', successesRate: 0 });
    expect(rows[0]).toMatchObject({ latencyMsP50: null, latencyMsP95: null, latencyMsP99: null });
    expect(rows[1]).toMatchObject({ name: 'web', server: 'web-http', port: '8080', route: 'books', routeType: 'HTTPRoute', successesRate: 1 });
    expect(rows[1]?.latencyMsP50).toBeCloseTo(50, 6);
    expect(rows[1]?.latencyMsP99).toBeCloseTo(99, 6);
    expect(rows[1]?.rps).toBeGreaterThan(0);
  });

  it('a kind alone lists every workload of that kind in the namespace', async () => {
    const r = await run(['viz', 'stat-inbound', 'deploy', '-n', 'emojivoto', '--prometheusURL', prom.url]);
    expect(r.code).toBe(0);
    expect(cells(r.stdout).map((row) => `${row[0]} ${row[1]}`)).toEqual(['NAME SERVER', 'vote web-http:8080', 'web [default]:4191', 'web web-http:8080']);
  });

  it('reaches viz Prometheus through a port-forward to its pod, or the external prometheusUrl of the viz namespace', async () => {
    const objects = await clusterWithViz();
    const s = await startApiServer({
      objects,
      portForward: (_ns, pod, port) => (pod.startsWith('prometheus-') && port === 9090 ? { host: '127.0.0.1', port: prom.port } : undefined),
    });
    servers.push(s);
    const forwarded = await run(['viz', 'stat-inbound', 'deploy/web', '-n', 'emojivoto', '--kubeconfig', s.kubeconfigPath]);
    expect(forwarded.stderr).toBe('');
    expect(cells(forwarded.stdout).map((row) => row[1])).toEqual(['SERVER', '[default]:4191', 'web-http:8080']);
    expect(s.requests.some((q) => /\/namespaces\/linkerd-viz\/pods\/prometheus-[^/]+\/portforward$/.test(q.path))).toBe(true);

    // An external Prometheus: no port-forward at all.
    const ns = objects.find((o) => o.kind === 'Namespace' && o.metadata.name === 'linkerd-viz') as StoredObject;
    s.put({ ...ns, metadata: { ...ns.metadata, annotations: { 'viz.linkerd.io/external-prometheus': prom.url } } });
    s.setPortForward(undefined);
    s.resetRequests();
    const external = await run(['viz', 'stat-outbound', 'deploy/web', '-n', 'emojivoto', '--kubeconfig', s.kubeconfigPath]);
    expect(external.stderr).toBe('');
    expect(external.stdout).toContain('books:7002');
    expect(s.requests.some((q) => q.path.endsWith('/portforward'))).toBe(false);
  });
});

describe('linkerd viz stat-outbound (real Prometheus)', () => {
  it('draws each route with its backends as a tree, with timeouts and retries', async () => {
    const r = await run(['viz', 'stat-outbound', 'deploy/web', '-n', 'emojivoto', '--prometheusURL', prom.url]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^NAME {2}SERVICE {5}ROUTE {8}TYPE {7}BACKEND {8}SUCCESS +RPS {2}LATENCY_P50 {2}LATENCY_P95 {2}LATENCY_P99 {2}TIMEOUTS {2}RETRIES {2}$/,
    );
    const books = lines.findIndex((l) => l.startsWith('web   books:7002'));
    const emoji = lines.findIndex((l) => l.startsWith('web   emoji:8080'));
    expect(books).toBeGreaterThan(0);
    expect(emoji).toBeGreaterThan(0);
    // The books route, then its two backends (any order); the last one closes the tree.
    const route = cells(lines[books] ?? '').flat();
    expect(route.slice(0, 3)).toEqual(['web', 'books:7002', 'books-route']);
    expect(route[3]).toBe('HTTPRoute');
    expect(percent(route[4] ?? '')).toBeCloseTo(90, 0);
    expect(route.slice(6, 9)).toEqual(['50ms', '95ms', '99ms']);
    expect(percent(route[9] ?? '')).toBeCloseTo(10, 0);
    expect(percent(route[10] ?? '')).toBeCloseTo(100 / 11, 0);
    const backends = [lines[books + 1] ?? '', lines[books + 2] ?? ''];
    expect(backends[0]).toMatch(/^ {5,}├────────────────────► {2}books-v[12]:7002 {2}/);
    expect(backends[1]).toMatch(/^ {5,}└────────────────────► {2}books-v[12]:7002 {2}/);
    const v1 = cells(backends.find((l) => l.includes('books-v1')) ?? '').flat();
    const v2 = cells(backends.find((l) => l.includes('books-v2')) ?? '').flat();
    expect(v1.slice(1)).toEqual(['books-v1:7002', '100.00%', expect.stringMatching(/^\d+\.\d\d$/), '50ms', '95ms', '99ms', '0.00%']);
    // No latency series for books-v2: Go's zero value, 0ms (not `-`), as the real command prints.
    expect(v2.slice(1, 3)).toEqual(['books-v2:7002', expect.stringMatching(/%$/)]);
    expect(percent(v2[2] ?? '')).toBeCloseTo(80, 0);
    expect(v2.slice(4, 8)).toEqual(['0ms', '0ms', '0ms', '0.00%']);
    // The gRPC default route: `[default]`, no type, one backend.
    expect(cells(lines[emoji] ?? '').flat()).toEqual([
      'web',
      'emoji:8080',
      '[default]',
      '100.00%',
      expect.stringMatching(/^\d/),
      '0ms',
      '0ms',
      '0ms',
      '0.00%',
      '0.00%',
    ]);
    // `[default]` is shorter than the column: its branch is padded with `─` to meet the arrow.
    expect(lines[emoji + 1]).toMatch(/^ {18}└────────────────────► {2}emoji:8080 {5}/);
  });

  it('-o json: route rows carry retryRate, backend rows backend and backendPort', async () => {
    const r = await run(['viz', 'stat-outbound', 'deploy/web', '-n', 'emojivoto', '-o', 'json', '--prometheusURL', prom.url]);
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    const route = rows.find((x) => x.route === 'books-route' && x.backend === undefined);
    expect(Object.keys(route ?? {})).toEqual([
      'name',
      'service',
      'port',
      'route',
      'routeType',
      'successRate',
      'rps',
      'latencyMsP50',
      'latencyMsP95',
      'latencyMsP99',
      'timeoutRate',
      'retryRate',
    ]);
    expect(route?.successRate).toBeCloseTo(0.9, 2);
    expect(route?.timeoutRate).toBeCloseTo(0.1, 2);
    expect(route?.retryRate).toBeCloseTo(1 / 11, 2);
    const v2 = rows.find((x) => x.backend === 'books-v2');
    expect(v2).toMatchObject({ service: 'books', port: '7002', backendPort: '7002', latencyMsP50: 0 });
    expect(Object.keys(v2 ?? {})).not.toContain('retryRate');
    expect(rows.filter((x) => x.route === '[default]').map((x) => x.backend)).toEqual([undefined, 'emoji']);
  });
});

describe('stat-inbound / stat-outbound errors: one line each', () => {
  it('Prometheus down: the Go client words, naming the URL', async () => {
    const port = await freePort();
    const r = await run(['viz', 'stat-inbound', 'deploy/web', '--prometheusURL', `http://127.0.0.1:${port}`]);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `failed to query Prometheus:  Post "http://127.0.0.1:${port}/api/v1/query": dial tcp 127.0.0.1:${port}: connect: connection refused\n`,
    );
    expect(r.code).toBe(1);
  });

  it("Prometheus' refusal of the query (a bad time window) is its own error", async () => {
    const r = await run(['viz', 'stat-outbound', 'deploy/web', '-t', '1x', '--prometheusURL', prom.url]);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^failed to query Prometheus: {2}bad_data: invalid parameter "query": [^\n]*\n$/);
    expect(r.code).toBe(1);
  });

  it('a bad -o, a bad resource, viz missing', async () => {
    const bad = await run(['viz', 'stat-inbound', 'deploy/web', '-o', 'yaml', '--prometheusURL', prom.url]);
    expect([bad.stdout, bad.stderr, bad.code]).toEqual(['', 'Error: Invalid output format: yaml\n', 1]);
    const resource = await run(['viz', 'stat-inbound', 'deploy/web/x', '--prometheusURL', prom.url]);
    expect([resource.stdout, resource.stderr, resource.code]).toEqual(['', 'Error: Invalid resource string: deploy/web/x\n', 1]);
    const kind = await run(['viz', 'stat-inbound', 'widget/x', '--prometheusURL', prom.url]);
    expect(kind.stderr).toBe('Error: cannot find Kubernetes canonical name from friendly name [widget]\n');
    const none = await run(['viz', 'stat-inbound']);
    expect(none.stderr).toContain('requires at least 1 arg(s), only received 0');
    const s = await startApiServer({ objects: [] });
    servers.push(s);
    const missing = await run(['viz', 'stat-inbound', 'deploy/web', '--kubeconfig', s.kubeconfigPath]);
    expect(missing.stderr).toBe(
      'Cannot connect to Linkerd Viz: namespace with label "linkerd.io/extension: viz" not found\nValidate the install with: linkerd viz check\n',
    );
    expect(missing.code).toBe(1);
  });

  it('a Prometheus that never answers hits the deadline; an endless answer the body bound', async () => {
    const hung = http.createServer(() => undefined);
    const endless = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (res.write(chunk));
      };
      res.on('drain', pump);
      pump();
    });
    for (const srv of [hung, endless]) {
      await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
      closers.push(
        () =>
          new Promise<void>((resolve) => {
            srv.closeAllConnections();
            srv.close(() => resolve());
          }),
      );
    }
    const at = (srv: http.Server) => `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
    await expect(prometheusAt(at(hung), { timeoutMs: 300 }).query('up')).rejects.toThrow(
      `Post "${at(hung)}/api/v1/query": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
    );
    await expect(prometheusAt(at(endless), { timeoutMs: 10_000, limit: { bytes: 1024 * 1024, what: 'Prometheus answers' } }).query('up')).rejects.toThrow(
      /larger than the 1 MiB limit for Prometheus answers/,
    );
  });
});
