import type { Pod } from 'kubernetes-types/core/v1.js';
import { UserError } from '../../../core/errors.js';
import type { KubeClient } from '../../../core/kube/kubeClient.js';
import type { CustomResource } from '../../../core/kube/resources.js';
import { MetricsTimeout, parseSamples, scrapeMetrics, type Sample } from './metrics.js';
import { EXTENSION_LABEL } from '../../../core/mesh/names.js';

/*
 * `multicluster gateways`: per Link, from the leading service mirror's metrics, whether its
 * gateway is alive, the mirrored services and the last probe's latency. Gateway-less links report
 * `gateway_enabled 0` and are left out, as upstream leaves them.
 */

const LEASES: CustomResource = { group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true };

export interface GatewayRow {
  clusterName: string;
  alive: boolean;
  numberOfServices: number;
  latency: number;
}

export interface GatewaysRequest {
  clusterName: string;
  timeoutMs: number;
  /** Per-pod failures, as the real command prints them to stderr and goes on. */
  warn: (line: string) => void;
}

export async function extensionNamespace(client: KubeClient): Promise<string> {
  const namespaces = await client.list('namespaces', { labelSelector: EXTENSION_LABEL });
  const ns = namespaces.find((n) => n.metadata?.labels?.[EXTENSION_LABEL] === 'multicluster');
  if (!ns?.metadata?.name)
    throw new UserError(
      `make sure the linkerd-multicluster extension is installed, using 'linkerd multicluster install' (namespace with label "linkerd.io/extension: multicluster" not found)`,
    );
  return ns.metadata.name;
}

async function rowOf(client: KubeClient, pod: Pod, timeoutMs: number): Promise<GatewayRow | undefined> {
  const c = pod.metadata?.labels?.['mirror.linkerd.io/cluster-name'] ?? '';
  if (pod.status?.phase !== 'Running') throw new UserError(`pod not running: ${pod.metadata?.name ?? ''}`);
  const samples = parseSamples(await scrapeMetrics(client, pod, timeoutMs)).filter((s) => s.labels.target_cluster_name === c);
  const enabled = samples.find((s) => s.name === 'gateway_enabled');
  if (enabled && enabled.value !== 1) return undefined;
  const alive = samples.some((s) => s.name === 'gateway_alive' && s.value === 1);
  const latency = Math.trunc(samples.find((s) => s.name === 'gateway_latency')?.value ?? 0);
  const services = await client.list('services', { labelSelector: `mirror.linkerd.io/mirrored-service=true,mirror.linkerd.io/cluster-name=${c}` });
  return { clusterName: c, alive, numberOfServices: services.length, latency };
}

export async function gatewayRows(client: KubeClient, req: GatewaysRequest): Promise<GatewayRow[]> {
  const ns = await extensionNamespace(client);
  const selector = `component in (linkerd-service-mirror, controller)${req.clusterName ? `,mirror.linkerd.io/cluster-name=${req.clusterName}` : ''}`;
  const listFailed = (e: unknown) => new UserError(`failed to list pods in namespace ${ns}: ${(e as Error).message}`, { cause: e });
  const pods = await client.list('pods', { namespace: ns, labelSelector: selector }).catch((e: unknown) => Promise.reject(listFailed(e)));
  const leases = await client.list(LEASES, { namespace: ns }).catch((e: unknown) => Promise.reject(listFailed(e)));
  const leaders = new Set(
    leases
      .filter((l) => (l.metadata?.name ?? '').includes('service-mirror-write'))
      .map((l) => (l as { spec?: { holderIdentity?: string } }).spec?.holderIdentity ?? ''),
  );
  const rows = await Promise.all(
    pods
      .filter((p) => leaders.has(p.metadata?.name ?? ''))
      .map((p) =>
        rowOf(client, p, req.timeoutMs).catch((e: unknown) => {
          req.warn(`Failed to get gateway status for ${p.metadata?.labels?.['mirror.linkerd.io/cluster-name'] ?? ''}: ${(e as Error).message}`);
          return undefined;
        }),
      ),
  );
  return rows.filter((r): r is GatewayRow => r !== undefined).sort((a, b) => (a.clusterName < b.clusterName ? -1 : a.clusterName > b.clusterName ? 1 : 0));
}

/**
 * The samples for cluster `c` of the service mirror that holds Lease `service-mirror-write-<c>`
 * in `ns`, scraped by `deadline` (epoch ms; what `multicluster check`'s probe check reads), or
 * the real check's message of what went wrong.
 */
export async function leaderSamples(client: KubeClient, ns: string, c: string, deadline: number): Promise<Sample[] | { problem: string }> {
  let pods: Pod[];
  try {
    pods = await client.list('pods', { namespace: ns, labelSelector: `component in (linkerd-service-mirror, controller),mirror.linkerd.io/cluster-name=${c}` });
  } catch (e) {
    return { problem: `failed to get the service-mirror component for target cluster ${c}: ${(e as Error).message}` };
  }
  let holder: string;
  try {
    const lease = await client.find(LEASES, `service-mirror-write-${c}`, ns);
    if (lease === undefined) throw new Error(`leases.coordination.k8s.io "service-mirror-write-${c}" not found`);
    holder = (lease as { spec?: { holderIdentity?: string } }).spec?.holderIdentity ?? '';
  } catch (e) {
    return { problem: `failed to get the service-mirror component Lease for target cluster ${c}: ${(e as Error).message}` };
  }
  const leaders = pods.filter((p) => p.metadata?.name === holder);
  const [leader] = leaders;
  if (leaders.length !== 1 || !leader) return { problem: `expected exactly one gateway metric for target cluster ${c}; got ${leaders.length}` };
  try {
    if (leader.status?.phase !== 'Running') throw new UserError(`pod not running: ${leader.metadata?.name ?? ''}`);
    const left = deadline - Date.now();
    if (left <= 0) throw new MetricsTimeout();
    return parseSamples(await scrapeMetrics(client, leader, left)).filter((x) => x.labels.target_cluster_name === c);
  } catch (e) {
    if (e instanceof MetricsTimeout) return { problem: `failed to get gateway metrics for target cluster ${c}: ${e.message}` };
    return { problem: `Failed to get gateway status for ${c}: ${(e as Error).message}\n` };
  }
}

/** cli/table's layout: CLUSTER and ALIVE grow, NUM_SVC and LATENCY are right-aligned, two spaces after each cell. */
export function gatewaysTable(rows: readonly GatewayRow[]): string {
  const cells = rows.map((r) => [r.clusterName, r.alive ? 'True' : 'False', String(r.numberOfServices), r.alive ? `${r.latency}ms` : '-']);
  const w0 = Math.max(7, ...cells.map((c) => (c[0] ?? '').length));
  const w1 = Math.max(5, ...cells.map((c) => (c[1] ?? '').length));
  const line = (c: readonly string[]) =>
    `${(c[0] ?? '').padEnd(w0)}  ${(c[1] ?? '').padEnd(w1)}  ${(c[2] ?? '').padStart(9)}  ${(c[3] ?? '').padStart(11)}  \n`;
  return [line(['CLUSTER', 'ALIVE', 'NUM_SVC', 'LATENCY']), ...cells.map(line)].join('');
}

export function gatewaysJson(rows: readonly GatewayRow[]): string {
  return `${JSON.stringify(rows.length === 0 ? null : rows, null, 2)}\n`;
}
