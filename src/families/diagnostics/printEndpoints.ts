import type { Endpoint } from './endpoints.js';

/*
 * The real endpoints outputs: one tabwriter table per namespace (sorted; rows by service), cells
 * padded to their column plus 3 spaces (the last column not), the NAMESPACE and POD columns
 * padded to the longest across all tables; or one JSON array in its key order.
 */

const byNamespace = (endpoints: readonly Endpoint[]) => [...new Set(endpoints.map((e) => e.namespace))].sort();

export function endpointsTable(endpoints: readonly Endpoint[]): string {
  const nsWidth = Math.max(...endpoints.map((e) => e.namespace.length), 'NAMESPACE'.length);
  const podWidth = Math.max(...endpoints.map((e) => e.pod.length), 'POD'.length);
  const table = (ns: string) => {
    const rows = endpoints
      .filter((e) => e.namespace === ns)
      .sort((a, b) => a.service.localeCompare(b.service))
      .map((e) => [e.namespace.padEnd(nsWidth), e.ip, String(e.port), e.pod, e.service]);
    const all = [['NAMESPACE'.padEnd(nsWidth), 'IP', 'PORT', 'POD'.padEnd(podWidth), 'SERVICE'], ...rows];
    const widths = all[0]?.map((_, i) => Math.max(...all.map((r) => r[i]?.length ?? 0))) ?? [];
    return all.map((r) => `${r.map((c, i) => (i === r.length - 1 ? c : c.padEnd((widths[i] ?? 0) + 3))).join('')}\n`).join('');
  };
  return byNamespace(endpoints).map(table).join('\n');
}

export function endpointsJson(endpoints: readonly Endpoint[]): string {
  const ordered = byNamespace(endpoints).flatMap((ns) => endpoints.filter((e) => e.namespace === ns));
  const out = ordered.map((e) => ({
    namespace: e.namespace,
    ip: e.ip,
    port: e.port,
    pod: e.pod,
    service: e.service,
    weight: e.weight,
    ...(e.http2 ? { http2: e.http2 } : {}),
    labels: e.labels,
  }));
  return `${JSON.stringify(out, null, 2)}\n`;
}
