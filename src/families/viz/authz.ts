import { parseGoDuration } from '../../core/values/duration.js';
import { MetricsApiError, type MetricsApi } from './metricsApi/client.js';
import type { AuthzRequest, StatRow } from './metricsApi/proto.js';
import { buildResource } from './metricsApi/resources.js';
import { goFixed, requestRate, successRate } from './print/goFormat.js';

/*
 * `viz authz` (linkerd's viz/cmd/authz.go): one Authz request; a row per route, server and
 * authorization, printed with linkerd's cli/table (2-space gaps after every cell, text columns
 * left-aligned, sorted by server, route, authorization), or its JSON of the same cells.
 */

export class AuthzRequestError extends Error {}
export class AuthzApiError extends Error {}

export function authzRequest(args: readonly string[], o: { namespace: string; timeWindow: string }): AuthzRequest {
  const resource = args.length === 2 ? `${args[0]}/${args[1]}` : (args[0] ?? '');
  let window: bigint;
  try {
    window = parseGoDuration(o.timeWindow);
  } catch (e) {
    throw new AuthzRequestError((e as Error).message);
  }
  if (window < 15_000_000_000n) throw new AuthzRequestError('metrics time window needs to be at least 15s');
  let target;
  try {
    target = buildResource(o.namespace, resource);
  } catch (e) {
    throw new AuthzRequestError((e as Error).message);
  }
  return { resource: { ...target, namespace: target.namespace || 'default' }, timeWindow: o.timeWindow };
}

export async function authzRows(api: MetricsApi, request: AuthzRequest): Promise<StatRow[]> {
  let res;
  try {
    res = await api.call('Authz', request);
  } catch (e) {
    if (e instanceof MetricsApiError) throw new AuthzApiError(`Authz API error: ${e.message}`);
    throw e;
  }
  if (res.response.case === 'error') throw new AuthzApiError(`Authz API error: ${res.response.value.error}`);
  const table = res.response.case === 'ok' ? res.response.value.statTable?.table : undefined;
  return table?.case === 'podGroup' ? table.value.rows : [];
}

const HEADERS = ['ROUTE', 'SERVER', 'AUTHORIZATION', 'UNAUTHORIZED', 'SUCCESS', 'RPS', 'LATENCY_P50', 'LATENCY_P95', 'LATENCY_P99'];
const LEFT = 3;

/** The cells of each row, sorted, as linkerd builds them (its quirk kept: activity is success+success+denied). */
export function authzCells(rows: readonly StatRow[], window: string): string[][] {
  const out: string[][] = [];
  for (const r of rows) {
    const srv = r.srvStats?.srv;
    const authz = r.srvStats?.authz;
    const server = srv?.type === 'default' ? `default:${srv.name}` : (srv?.name ?? '');
    const authzName = authz?.type ? `${authz.type}/${authz.name}` : '';
    const s = r.stats;
    const success = s?.successCount ?? 0n;
    const failure = s?.failureCount ?? 0n;
    const denied = r.srvStats?.deniedCount ?? 0n;
    const head = [r.srvStats?.route?.name ?? '', server, authzName];
    if (success + success + denied > 0n) {
      out.push([
        ...head,
        `${goFixed(requestRate(denied, 0n, window), 1)}rps`,
        `${goFixed(successRate(success, failure) * 100, 2)}%`,
        `${goFixed(requestRate(success, failure, window), 1)}rps`,
        `${s?.latencyMsP50 ?? 0n}ms`,
        `${s?.latencyMsP95 ?? 0n}ms`,
        `${s?.latencyMsP99 ?? 0n}ms`,
      ]);
    } else if (authz?.type && authz.type !== 'default') {
      out.push([...head, '-', '-', '-', '-', '-', '-']);
    }
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return out.sort((a, b) => cmp(a[1] ?? '', b[1] ?? '') || cmp(a[0] ?? '', b[0] ?? '') || cmp(a[2] ?? '', b[2] ?? ''));
}

// eslint-disable-next-line @typescript-eslint/no-misused-spread
const runes = (s: string) => [...s].length;

export function authzTable(cells: readonly string[][]): string {
  const widths = HEADERS.map((h, c) => Math.max(runes(h), ...cells.map((r) => runes(r[c] ?? ''))));
  const line = (row: readonly string[]) =>
    `${row
      .map((v, c) => {
        const pad = ' '.repeat((widths[c] ?? 0) - runes(v));
        return `${c < LEFT ? v + pad : pad + v}  `;
      })
      .join('')}\n`;
  return line(HEADERS) + cells.map(line).join('');
}

/** Go's shortest text of a float32 (the JSON of linkerd's Sscanf'd values). */
function float32Text(x: number): number {
  const f = Math.fround(x);
  for (let p = 1; p <= 9; p++) {
    const s = Number(f.toPrecision(p));
    if (Math.fround(s) === f) return s;
  }
  return f;
}

/** linkerd's renderJSON: lower-cased headers (keys sorted, as Go marshals a map), `-` cells left out, no final newline. */
export function authzJson(cells: readonly string[][]): string {
  const rows = cells.map((row) => {
    const entry: Record<string, string | number> = {};
    HEADERS.forEach((h, c) => {
      const v = row[c] ?? '';
      if (v === '-') return;
      const field = h.toLowerCase();
      if (field.startsWith('latency_')) {
        const m = /^(-?\d+)ms/.exec(v);
        entry[`latency_ms_${field.slice('latency_'.length)}`] = m ? Number(m[1]) : v;
      } else if (field === 'rps' || field === 'unauthorized') {
        const n = Number.parseFloat(v);
        entry[field] = Number.isNaN(n) ? v : float32Text(n);
      } else if (field === 'success') {
        const n = Number.parseFloat(v);
        entry[field] = Number.isNaN(n) ? v : float32Text(Math.fround(Math.fround(n) / 100));
      } else entry[field] = v;
    });
    return Object.fromEntries(Object.entries(entry).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
  return JSON.stringify(rows, null, 2);
}
