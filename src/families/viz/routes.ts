import { parseGoDuration } from '../../core/values/duration.js';
import { MetricsApiError, type MetricsApi } from './metricsApi/client.js';
import type { RouteRow, TopRoutesRequest, TopRoutesResponse } from './metricsApi/proto.js';
import { buildResource } from './metricsApi/resources.js';
import { goFixed, requestRate, successRate } from './print/goFormat.js';
import { stripLeadingPadding, tabwrite } from './print/tabwriter.js';

/*
 * `viz routes` (linkerd's viz/cmd/routes.go): one TopRoutes request, a table per resource
 * (sorted by service and route, the ROUTE column padded to its longest route), or JSON keyed by
 * resource. `-o wide` (with --to) shows effective and actual success and rates.
 */

export class RoutesRequestError extends Error {}
export class RoutesApiError extends Error {}

export interface RoutesOptions {
  resource: string;
  namespace: string;
  timeWindow: string;
  to: string;
  toNamespace: string;
  output: string;
  labelSelector: string;
}

export function routesRequest(o: RoutesOptions): TopRoutesRequest {
  if (o.output === 'wide' && !o.to) throw new RoutesRequestError('wide output is only available when --to is specified');
  if (!['table', 'json', 'wide'].includes(o.output)) throw new RoutesRequestError('--output currently only supports table, wide, and json');
  try {
    const target = buildResource(o.namespace, o.resource);
    if (o.timeWindow) parseGoDuration(o.timeWindow);
    const to = o.to ? buildResource(o.toNamespace || o.namespace, o.to) : undefined;
    return {
      selector: { resource: { namespace: o.namespace, type: target.type, name: target.name }, labelSelector: o.labelSelector },
      timeWindow: o.timeWindow || '1m',
      outbound: to ? { case: 'toResource', value: { namespace: o.toNamespace || o.namespace, type: to.type, name: to.name } } : { case: 'none', value: {} },
    };
  } catch (e) {
    throw new RoutesRequestError((e as Error).message);
  }
}

type Tables = Extract<TopRoutesResponse['response'], { case: 'ok' }>['value']['routes'];

export async function topRoutes(api: MetricsApi, request: TopRoutesRequest): Promise<Tables> {
  let res: TopRoutesResponse;
  try {
    res = await api.call('TopRoutes', request);
  } catch (e) {
    if (e instanceof MetricsApiError) throw new RoutesApiError(`TopRoutes API error: ${e.message}`);
    throw e;
  }
  if (res.response.case === 'error') throw new RoutesApiError(res.response.value.error);
  return res.response.case === 'ok' ? res.response.value.routes : [];
}

interface Line {
  route: string;
  dst: string;
  rps: number;
  success: number;
  actualRps: number;
  actualSuccess: number;
  p50: bigint;
  p95: bigint;
  p99: bigint;
  hasData: boolean;
}

function lines(rows: readonly RouteRow[]): Line[] {
  return rows
    .filter((r) => r.stats)
    .map((r) => {
      const s = r.stats as NonNullable<RouteRow['stats']>;
      return {
        route: r.route,
        dst: r.authority,
        rps: requestRate(s.successCount, s.failureCount, r.timeWindow),
        success: successRate(s.successCount, s.failureCount),
        actualRps: requestRate(s.actualSuccessCount, s.actualFailureCount, r.timeWindow),
        actualSuccess: successRate(s.actualSuccessCount, s.actualFailureCount),
        p50: s.latencyMsP50,
        p95: s.latencyMsP95,
        p99: s.latencyMsP99,
        hasData: s.successCount !== 0n || s.failureCount !== 0n || s.actualSuccessCount !== 0n || s.actualFailureCount !== 0n,
      };
    })
    .sort((a, b) => {
      const ka = a.dst + a.route;
      const kb = b.dst + b.route;
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
}

const byResource = (tables: Tables) => [...tables].sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));

function table(rows: readonly Line[], actual: boolean): string {
  const width = Math.max(0, ...rows.map((r) => r.route.length));
  const headers = ['ROUTE'.padEnd(width), 'SERVICE', ...(actual ? ['EFFECTIVE_SUCCESS', 'EFFECTIVE_RPS', 'ACTUAL_SUCCESS', 'ACTUAL_RPS'] : ['SUCCESS', 'RPS'])];
  let out = `${[...headers, 'LATENCY_P50', 'LATENCY_P95', 'LATENCY_P99\t'].join('\t')}\n`;
  for (const r of rows) {
    const cells = [r.route.padEnd(width), r.dst];
    if (r.hasData) {
      cells.push(`${goFixed(r.success * 100, 2)}%`, `${goFixed(r.rps, 1)}rps`);
      if (actual) cells.push(`${goFixed(r.actualSuccess * 100, 2)}%`, `${goFixed(r.actualRps, 1)}rps`);
      cells.push(`${r.p50}ms`, `${r.p95}ms`, `${r.p99}ms`);
    } else cells.push(...Array<string>(actual ? 7 : 5).fill('-'));
    out += `${cells.join('\t')}\t\n`;
  }
  return out;
}

export function routesTable(tables: Tables, o: { to: boolean; wide: boolean }): string {
  const many = tables.length > 1;
  const text = byResource(tables)
    .map((t) => `${many ? `==> ${t.resource} <==\t\f` : ''}${table(lines(t.rows), o.to && o.wide)}\n`)
    .join('');
  return stripLeadingPadding(tabwrite(text));
}

export function routesJson(tables: Tables, o: { to: boolean }): string {
  const out: Record<string, object[]> = {};
  for (const t of byResource(tables)) {
    const entries = lines(t.rows).map((r) => ({
      route: r.route,
      authority: r.dst,
      ...(o.to
        ? { effective_success: r.success, effective_rps: r.rps, actual_success: r.actualSuccess, actual_rps: r.actualRps }
        : { success: r.success, rps: r.rps }),
      latency_ms_p50: Number(r.p50),
      latency_ms_p95: Number(r.p95),
      latency_ms_p99: Number(r.p99),
    }));
    if (entries.length > 0) out[t.resource] = entries;
  }
  return `${JSON.stringify(out, null, 2)}\n`;
}
