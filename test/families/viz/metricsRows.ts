import type { StatRow } from '../../../src/families/viz/metricsApi/proto.js';

/* Rows of a StatSummary answer for tests, with linkerd's generator's defaults (123 everywhere). */

export function statRow(
  type: string,
  name: string,
  namespace: string,
  o: Partial<StatRow> & { requests?: boolean; srv?: string; denied?: bigint } = {},
): StatRow {
  const requests = o.requests ?? true;
  return {
    resource: { namespace, type, name },
    timeWindow: o.timeWindow ?? '1m',
    status: o.status ?? '',
    meshedPodCount: o.meshedPodCount ?? 1n,
    runningPodCount: o.runningPodCount ?? 2n,
    failedPodCount: 0n,
    stats: requests
      ? {
          successCount: 123n,
          failureCount: 0n,
          latencyMsP50: 123n,
          latencyMsP95: 123n,
          latencyMsP99: 123n,
          actualSuccessCount: 0n,
          actualFailureCount: 0n,
          ...o.stats,
        }
      : undefined,
    tcpStats: o.tcpStats ?? { openConnections: 123n, readBytesTotal: 123n, writeBytesTotal: 123n },
    ...(o.srv !== undefined
      ? {
          srvStats: { allowedCount: 0n, deniedCount: o.denied ?? 0n, srv: { namespace, type: 'server', name: o.srv }, route: undefined, authz: undefined },
        }
      : {}),
  };
}

export const okStat = (rows: StatRow[]) => ({
  response: { case: 'ok' as const, value: { statTables: [{ table: { case: 'podGroup' as const, value: { rows } } }] } },
});
