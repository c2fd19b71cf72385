import type { StatRow } from '../metricsApi/proto.js';
import { ALL_RESOURCES, shortName } from '../metricsApi/resources.js';
import { goFixed, requestRate, successRate } from './goFormat.js';
import { stripLeadingPadding, tabwrite } from './tabwriter.js';

/*
 * The real `viz stat` outputs: a tabwriter table per resource type (in linkerd's AllResources
 * order, a blank line between), NAME and NAMESPACE padded by hand to their longest value, every
 * other column right-aligned; `-` cells for rows without requests; or one indented JSON array.
 */

export interface StatPrintOptions {
  output: 'table' | 'json' | 'wide';
  allNamespaces: boolean;
  unmeshed: boolean;
  from: boolean;
}

interface Stats {
  requestRate: number;
  successRate: number;
  p50: bigint;
  p95: bigint;
  p99: bigint;
  tcpOpen: bigint;
  tcpRead: number;
  tcpWrite: number;
}

interface Line {
  namespace: string;
  name: string;
  meshed: string;
  status: string;
  server: string;
  unauthorized?: number;
  stats?: Stats;
}

/** Types whose rows are about pods (hidden when none is meshed). */
const ownsPods = (type: string) => !['service', 'server', 'serverauthorization', 'authorizationpolicy', 'httproute'].includes(type);
const POLICY = ['server', 'serverauthorization', 'authorizationpolicy', 'httproute'];
const hasMeshed = (type: string) => !POLICY.includes(type);
const hasUnauthorized = (type: string) => type === 'server' || type === 'httproute';
const showTcpConns = (type: string) => !['serverauthorization', 'authorizationpolicy', 'httproute'].includes(type);

function hasRequestData(s: StatRow['stats']): boolean {
  return s !== undefined && (s.successCount !== 0n || s.failureCount !== 0n || s.actualSuccessCount !== 0n || s.actualFailureCount !== 0n);
}

interface Tables {
  byType: Map<string, Map<string, Line>>;
  nameWidth: number;
  namespaceWidth: number;
}

function collect(rows: readonly StatRow[], o: StatPrintOptions): Tables {
  const byType = new Map<string, Map<string, Line>>();
  const usePrefix = new Set(rows.map((r) => r.resource?.type ?? '')).size > 1;
  let nameWidth = 'NAME'.length;
  let namespaceWidth = 'NAMESPACE'.length;
  for (const r of rows) {
    const type = r.resource?.type ?? '';
    if (!o.unmeshed && r.meshedPodCount === 0n && ownsPods(type) && !o.from) continue;
    const name = r.resource?.name ?? '';
    const namespace = r.resource?.namespace ?? '';
    const prefixed = usePrefix ? `${shortName(type)}/${name}` : name;
    nameWidth = Math.max(nameWidth, prefixed.length);
    namespaceWidth = Math.max(namespaceWidth, namespace.length);
    let table = byType.get(type);
    if (!table) byType.set(type, (table = new Map<string, Line>()));
    const line: Line = {
      namespace,
      name,
      meshed: type === 'service' ? '-' : `${r.meshedPodCount}/${r.runningPodCount}`,
      status: r.status,
      server: r.srvStats?.srv?.name ?? '',
    };
    if (r.srvStats) line.unauthorized = requestRate(r.srvStats.deniedCount, 0n, r.timeWindow);
    if (hasRequestData(r.stats) && r.stats) {
      line.stats = {
        requestRate: requestRate(r.stats.successCount, r.stats.failureCount, r.timeWindow),
        successRate: successRate(r.stats.successCount, r.stats.failureCount),
        p50: r.stats.latencyMsP50,
        p95: r.stats.latencyMsP95,
        p99: r.stats.latencyMsP99,
        tcpOpen: r.tcpStats?.openConnections ?? 0n,
        tcpRead: requestRate(r.tcpStats?.readBytesTotal ?? 0n, 0n, r.timeWindow),
        tcpWrite: requestRate(r.tcpStats?.writeBytesTotal ?? 0n, 0n, r.timeWindow),
      };
    }
    table.set(`${namespace}/${name}`, line);
  }
  return { byType, nameWidth, namespaceWidth };
}

const sortedKeys = (m: Map<string, Line>) => [...m.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const typesInOrder = (t: Tables) => [
  ...ALL_RESOURCES.filter((r) => t.byType.has(r)),
  ...[...t.byType.keys()].filter((k) => !(ALL_RESOURCES as readonly string[]).includes(k)),
];

function singleTable(t: Tables, type: string, label: string, o: StatPrintOptions): string {
  const stats = t.byType.get(type) ?? new Map<string, Line>();
  const wide = o.output === 'wide';
  const headers: string[] = [];
  if (o.allNamespaces) headers.push('NAMESPACE'.padEnd(t.namespaceWidth));
  headers.push('NAME'.padEnd(t.nameWidth));
  if (type === 'pod') headers.push('STATUS');
  if (type === 'httproute') headers.push('SERVER');
  if (hasMeshed(type)) headers.push('MESHED');
  if (hasUnauthorized(type)) headers.push('UNAUTHORIZED');
  headers.push('SUCCESS', 'RPS', 'LATENCY_P50', 'LATENCY_P95', 'LATENCY_P99');
  if (showTcpConns(type)) headers.push('TCP_CONN');
  if (wide && showTcpConns(type)) headers.push('READ_BYTES/SEC', 'WRITE_BYTES/SEC');
  let out = `${headers.join('\t')}\t\n`;
  for (const key of sortedKeys(stats)) {
    const line = stats.get(key);
    if (!line) continue;
    const name = label ? `${shortName(label)}/${line.name}` : line.name;
    const cells: string[] = [];
    if (o.allNamespaces) cells.push(line.namespace.padEnd(t.namespaceWidth));
    cells.push(name.padEnd(t.nameWidth));
    if (type === 'pod') cells.push(line.status);
    if (type === 'httproute') cells.push(line.server);
    if (hasMeshed(type)) cells.push(line.meshed);
    const s = line.stats;
    if (hasUnauthorized(type)) cells.push(s && line.unauthorized !== undefined ? `${goFixed(line.unauthorized, 1)}rps` : '-');
    if (s) {
      cells.push(`${goFixed(s.successRate * 100, 2)}%`, `${goFixed(s.requestRate, 1)}rps`, `${s.p50}ms`, `${s.p95}ms`, `${s.p99}ms`);
      if (showTcpConns(type)) cells.push(String(s.tcpOpen));
      if (wide && showTcpConns(type)) cells.push(`${goFixed(s.tcpRead, 1)}B/s`, `${goFixed(s.tcpWrite, 1)}B/s`);
    } else {
      cells.push('-', '-', '-', '-', '-');
      if (showTcpConns(type)) cells.push('-');
      if (wide && showTcpConns(type)) cells.push('-', '-');
    }
    out += `${cells.join('\t')}\t\n`;
  }
  return out;
}

/** The table (or tables), or undefined when there is no row to show (`No traffic found.`). */
export function statTable(rows: readonly StatRow[], o: StatPrintOptions): string | undefined {
  const t = collect(rows, o);
  if (t.byType.size === 0) return undefined;
  const types = typesInOrder(t);
  const text = types.map((type) => singleTable(t, type, types.length > 1 ? type : '', o)).join('\n');
  return stripLeadingPadding(tabwrite(text));
}

/** The JSON array, as linkerd's printStatJSON marshals it (nulls for rows without requests). */
export function statJson(rows: readonly StatRow[], o: StatPrintOptions): string {
  const t = collect(rows, o);
  const entries = typesInOrder(t).flatMap((type) => {
    const stats = t.byType.get(type) ?? new Map<string, Line>();
    return sortedKeys(stats).map((key) => {
      const line = stats.get(key) as Line;
      const s = line.stats;
      return {
        namespace: line.namespace,
        kind: type,
        name: line.name,
        ...(hasUnauthorized(type) && s && line.unauthorized !== undefined ? { unauthorized: line.unauthorized } : {}),
        success: s ? s.successRate : null,
        rps: s ? s.requestRate : null,
        latency_ms_p50: s ? Number(s.p50) : null,
        latency_ms_p95: s ? Number(s.p95) : null,
        latency_ms_p99: s ? Number(s.p99) : null,
        ...(s && showTcpConns(type) ? { tcp_open_connections: Number(s.tcpOpen), tcp_read_bytes_rate: s.tcpRead, tcp_write_bytes_rate: s.tcpWrite } : {}),
      };
    });
  });
  return `${JSON.stringify(entries, null, 2)}\n`;
}
