import { renderCliTable, type CliColumn } from '../../cli/output/cliTable.js';
import type { PrometheusClient } from './prometheus/client.js';
import { QUANTILES, quantileQuery, rateQuery, resourceLabel, type Quantile, type StatResource } from './prometheus/queries.js';
import { count, jsonNumber, latencyText, percent32, queryAll, rps32, setLatency, type Latencies } from './statInbound.js';

/*
 * `viz stat-outbound` (linkerd's viz/cmd/stat-outbound.go): the target's outbound HTTP and gRPC
 * route metrics by parent service and route, each route followed by its backends. A response is
 * a failure when its status is 5xx (HTTP) or not OK (gRPC), or when it carries an error; a
 * timeout when that error is a response-headers or request timeout.
 */

export interface OutboundCounts extends Latencies {
  successes: number;
  failures: number;
  timeouts: number;
}

export interface OutboundBackend extends OutboundCounts {
  name: string;
  port: string;
}

export interface OutboundRoute extends OutboundCounts {
  name: string;
  service: string;
  port: string;
  route: string;
  routeType: string;
  retries: number;
  backends: OutboundBackend[];
}

const TIMEOUT_ERRORS = new Set(['RESPONSE_HEADERS_TIMEOUT', 'REQUEST_TIMEOUT']);
const zero = (): OutboundCounts => ({ successes: 0, failures: 0, timeouts: 0, p50: 0, p95: 0, p99: 0 });

function addCounts(row: OutboundCounts, m: Record<string, string>, value: number, protocol: 'http' | 'grpc'): void {
  const error = m.error ?? '';
  const failed = protocol === 'http' ? (m.http_status ?? '').startsWith('5') || error !== '' : m.grpc_status !== 'OK' || error !== '';
  if (failed) row.failures += count(value);
  else row.successes += count(value);
  if (TIMEOUT_ERRORS.has(error)) row.timeouts += count(value);
}

export async function statOutbound(client: PrometheusClient, resource: StatResource, window: string): Promise<OutboundRoute[]> {
  const parent = ['parent_name', 'parent_port'];
  const backend = [...parent, 'backend_name', 'backend_port', 'route_name', 'route_kind'];
  const route = [...parent, 'route_name', 'route_kind'];
  const base = { labels: {}, window, resource };
  const queriesOf = (protocol: 'http' | 'grpc') => {
    const status = protocol === 'http' ? 'http_status' : 'grpc_status';
    const metric = (m: string) => `outbound_${protocol}_route_${m}`;
    return [
      rateQuery({ ...base, metric: metric('backend_response_statuses_total'), groupBy: [...backend, status, 'error'] }),
      ...QUANTILES.map((q) => quantileQuery(q, { ...base, metric: metric('backend_response_duration_seconds_bucket'), groupBy: backend })),
      rateQuery({ ...base, metric: metric('request_statuses_total'), groupBy: [...route, status, 'error'] }),
      rateQuery({ ...base, metric: metric('retry_requests_total'), groupBy: route }),
      ...QUANTILES.map((q) => quantileQuery(q, { ...base, metric: metric('request_duration_seconds_bucket'), groupBy: route })),
    ];
  };
  const answers = await queryAll(client, [...queriesOf('http'), ...queriesOf('grpc')]);

  const routes = new Map<string, OutboundRoute & { byBackend: Map<string, OutboundBackend> }>();
  const routeOf = (m: Record<string, string>) => {
    const key = {
      name: m[resourceLabel(resource)] ?? '',
      service: m.parent_name ?? '',
      port: m.parent_port ?? '',
      route: m.route_name === 'default' ? '[default]' : (m.route_name ?? ''),
      routeType: m.route_kind === 'default' ? '' : (m.route_kind ?? ''),
    };
    const id = JSON.stringify(key);
    let row = routes.get(id);
    if (!row) routes.set(id, (row = { ...key, ...zero(), retries: 0, backends: [], byBackend: new Map() }));
    return row;
  };
  const backendOf = (m: Record<string, string>) => {
    const row = routeOf(m);
    const key = { name: m.backend_name ?? '', port: m.backend_port ?? '' };
    const id = JSON.stringify(key);
    let b = row.byBackend.get(id);
    if (!b) {
      row.byBackend.set(id, (b = { ...key, ...zero() }));
      row.backends.push(b);
    }
    return b;
  };

  (['http', 'grpc'] as const).forEach((protocol, p) => {
    const at = (i: number) => answers[p * 9 + i] ?? [];
    for (const s of at(0)) addCounts(backendOf(s.metric), s.metric, s.value, protocol);
    QUANTILES.forEach((q: Quantile, i) => {
      for (const s of at(1 + i)) setLatency(backendOf(s.metric), q, s.value * 1000);
    });
    for (const s of at(4)) addCounts(routeOf(s.metric), s.metric, s.value, protocol);
    for (const s of at(5)) routeOf(s.metric).retries += count(s.value);
    QUANTILES.forEach((q: Quantile, i) => {
      for (const s of at(6 + i)) setLatency(routeOf(s.metric), q, s.value * 1000);
    });
  });
  return [...routes.values()].map(({ byBackend: _, ...r }) => r);
}

const OUTBOUND_COLUMNS: CliColumn[] = [
  { header: 'NAME', leftAlign: true },
  { header: 'SERVICE', leftAlign: true },
  { header: 'ROUTE', leftAlign: true },
  { header: 'TYPE', leftAlign: true },
  { header: 'BACKEND', leftAlign: true },
  { header: 'SUCCESS' },
  { header: 'RPS' },
  { header: 'LATENCY_P50' },
  { header: 'LATENCY_P95' },
  { header: 'LATENCY_P99' },
  { header: 'TIMEOUTS' },
  { header: 'RETRIES' },
];

/** Each route, then its backends drawn as a tree under the route's name (`├──`, `└──`, `────────►`). */
export function outboundTable(routes: readonly OutboundRoute[], windowSeconds: number): string {
  const rows: string[][] = [];
  for (const r of routes) {
    const total = r.successes + r.failures;
    if (total === 0) continue;
    rows.push([
      r.name,
      `${r.service}:${r.port}`,
      r.route,
      r.routeType,
      '',
      percent32(r.successes, total),
      rps32(total, windowSeconds),
      latencyText(r.p50),
      latencyText(r.p95),
      latencyText(r.p99),
      percent32(r.timeouts, total),
      percent32(r.retries, total + r.retries),
    ]);
    // The branch is as long as the route's name in bytes, as Go's len counts.
    const branch = `├${'─'.repeat(Math.max(0, Buffer.byteLength(r.route) - 1))}`;
    for (const b of r.backends) {
      const btotal = b.successes + b.failures;
      rows.push([
        '',
        '',
        branch,
        '────────►',
        `${b.name}:${b.port}`,
        percent32(b.successes, btotal),
        rps32(btotal, windowSeconds),
        latencyText(b.p50),
        latencyText(b.p95),
        latencyText(b.p99),
        percent32(b.timeouts, btotal),
        '',
      ]);
    }
    const last = rows[rows.length - 1];
    if (last) last[2] = (last[2] ?? '').replace('├', '└');
  }
  return renderCliTable(OUTBOUND_COLUMNS, rows);
}

const jsonLatency = (v: number) => (Number.isNaN(v) ? null : jsonNumber(v));

export function outboundJson(routes: readonly OutboundRoute[], windowSeconds: number): string {
  const out: object[] = [];
  for (const r of routes) {
    const total = r.successes + r.failures;
    if (total === 0) continue;
    const common = { name: r.name, service: r.service, port: r.port, route: r.route, routeType: r.routeType };
    const rates = (c: OutboundCounts, t: number) => ({
      successRate: jsonNumber(c.successes / t),
      rps: jsonNumber(t / windowSeconds),
      latencyMsP50: jsonLatency(c.p50),
      latencyMsP95: jsonLatency(c.p95),
      latencyMsP99: jsonLatency(c.p99),
      timeoutRate: jsonNumber(c.timeouts / t),
    });
    out.push({ ...common, ...rates(r, total), retryRate: jsonNumber(r.retries / (total + r.retries)) });
    for (const b of r.backends) {
      const btotal = b.successes + b.failures;
      if (btotal === 0) continue;
      out.push({ ...common, ...(b.name ? { backend: b.name } : {}), ...(b.port ? { backendPort: b.port } : {}), ...rates(b, btotal) });
    }
  }
  return `${JSON.stringify(out)}\n`;
}
