import { UserError } from '../../core/errors.js';
import { goFixed } from '../../core/parse/strconv.js';
import { renderCliTable, type CliColumn } from '../../cli/output/cliTable.js';
import type { PrometheusClient, PromSample } from './prometheus/client.js';
import { QUANTILES, quantileQuery, rateQuery, resourceLabel, type Quantile, type StatResource } from './prometheus/queries.js';

/*
 * `viz stat-inbound` (linkerd's viz/cmd/stat-inbound.go): the target's inbound responses by
 * server, route and port, from Prometheus directly: a count of responses by classification over
 * the window, and the latency quantiles of the response histogram.
 */

export interface Latencies {
  /** Go's zero value when Prometheus had no sample for the row; NaN when its quantile is NaN. */
  p50: number;
  p95: number;
  p99: number;
}

export interface InboundRow extends Latencies {
  name: string;
  server: string;
  port: string;
  route: string;
  routeType: string;
  successes: number;
  failures: number;
}

/** Go's uint64(float64) for the counts Prometheus returns (increase() is extrapolated, so fractional). */
export const count = (v: number) => (Number.isFinite(v) && v > 0 ? Math.trunc(v) : 0);

/** Runs the queries at once; the first failure is the real CLI's one line. */
export async function queryAll(client: PrometheusClient, queries: readonly string[]): Promise<PromSample[][]> {
  try {
    return await Promise.all(queries.map((q) => client.query(q)));
  } catch (e) {
    throw UserError.verbatim(`failed to query Prometheus:  ${(e as Error).message}\n`);
  }
}

export function setLatency(row: Latencies, quantile: Quantile, value: number): void {
  if (quantile === '0.5') row.p50 = value;
  else if (quantile === '0.95') row.p95 = value;
  else row.p99 = value;
}

export async function statInbound(client: PrometheusClient, resource: StatResource, window: string): Promise<InboundRow[]> {
  const base = { labels: { direction: 'inbound' }, window, resource };
  const groups = ['srv_name', 'srv_kind', 'route_name', 'route_kind', 'target_port'];
  const [counts, ...quantiles] = await queryAll(client, [
    rateQuery({ ...base, metric: 'response_total', groupBy: [...groups.slice(0, 4), 'classification', 'target_port'] }),
    ...QUANTILES.map((q) => quantileQuery(q, { ...base, metric: 'response_latency_ms_bucket', groupBy: groups })),
  ]);
  const rows = new Map<string, InboundRow>();
  const rowOf = (m: Record<string, string>): InboundRow => {
    const key = {
      name: m[resourceLabel(resource)] ?? '',
      server: m.srv_kind === 'default' ? '[default]' : (m.srv_name ?? ''),
      port: m.target_port ?? '',
      route: m.route_name === 'default' ? '[default]' : (m.route_name ?? ''),
      routeType: m.route_kind === 'default' ? '' : (m.route_kind ?? ''),
    };
    const id = JSON.stringify(key);
    let row = rows.get(id);
    if (!row) rows.set(id, (row = { ...key, successes: 0, failures: 0, p50: 0, p95: 0, p99: 0 }));
    return row;
  };
  for (const s of counts ?? []) {
    const row = rowOf(s.metric);
    if (s.metric.classification === 'success') row.successes += count(s.value);
    else row.failures += count(s.value);
  }
  QUANTILES.forEach((q, i) => {
    for (const s of quantiles[i] ?? []) setLatency(rowOf(s.metric), q, s.value);
  });
  return [...rows.values()];
}

/** `%.2f%%` of a float32 ratio, as the real table computes it. */
export function percent32(part: number, total: number): string {
  return `${goFixed(Math.fround(Math.fround(Math.fround(part) / Math.fround(total)) * 100), 2)}%`;
}

/** `%.2f` of requests per second, in float32. */
export function rps32(total: number, windowSeconds: number): string {
  return goFixed(Math.fround(Math.fround(total) / Math.fround(windowSeconds)), 2);
}

export const latencyText = (ms: number) => (Number.isNaN(ms) ? '-' : `${goFixed(ms, 0)}ms`);

const INBOUND_COLUMNS: CliColumn[] = [
  { header: 'NAME', leftAlign: true },
  { header: 'SERVER', leftAlign: true },
  { header: 'ROUTE', leftAlign: true },
  { header: 'TYPE', leftAlign: true },
  { header: 'SUCCESS' },
  { header: 'RPS' },
  { header: 'LATENCY_P50' },
  { header: 'LATENCY_P95' },
  { header: 'LATENCY_P99' },
];

export function inboundTable(rows: readonly InboundRow[], windowSeconds: number): string {
  const cells = rows
    .filter((r) => r.successes + r.failures > 0)
    .map((r) => [
      r.name,
      `${r.server}:${r.port}`,
      r.route,
      r.routeType,
      percent32(r.successes, r.successes + r.failures),
      rps32(r.successes + r.failures, windowSeconds),
      latencyText(r.p50),
      latencyText(r.p95),
      latencyText(r.p99),
    ]);
  // Sorted by name, server and type (the real table's columns 0, 1 and 3).
  return renderCliTable(INBOUND_COLUMNS, cells, [0, 1, 3]);
}

/** Go's json.Marshal of a float64: NaN latencies become null before; an infinity is its error. */
export function jsonNumber(v: number): number {
  if (!Number.isFinite(v)) throw new UserError(`json: unsupported value: ${goFixed(v, 0)}`);
  return v;
}
const jsonLatency = (v: number) => (Number.isNaN(v) ? null : jsonNumber(v));

export function inboundJson(rows: readonly InboundRow[], windowSeconds: number): string {
  const out = rows
    .filter((r) => r.successes + r.failures > 0)
    .map((r) => ({
      name: r.name,
      server: r.server,
      port: r.port,
      route: r.route,
      routeType: r.routeType,
      successesRate: jsonNumber(r.successes / (r.successes + r.failures)),
      rps: jsonNumber((r.successes + r.failures) / windowSeconds),
      latencyMsP50: jsonLatency(r.p50),
      latencyMsP95: jsonLatency(r.p95),
      latencyMsP99: jsonLatency(r.p99),
    }));
  return `${JSON.stringify(out)}\n`;
}
