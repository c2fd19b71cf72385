import { connectKube, type KubeClient } from './kubeClient.js';
import type { KubeSelection } from './kubeconfig.js';
import { readLinkerdConfig } from './linkerdConfig.js';
import { proxyVersionOf } from './proxyVersion.js';
import { CONTROL_PLANE_NS_LABEL } from '../mesh/names.js';

/** What `linkerd version` reports when the control plane cannot be asked. */
export const UNAVAILABLE = 'unavailable';

/** `linkerd version` uses a 5 s deadline for each cluster read. */
const VERSION_TIMEOUT_MS = 5_000;

export interface Versions {
  /** `linkerdVersion` from linkerd-config, or `unavailable`. */
  server: string;
  /** Why the server version is unavailable (one line), for `--verbose`. */
  serverUnavailable?: string;
  /** With `proxy`: proxy image tag → number of pods; `undefined` when unavailable or no pods. */
  proxies?: Map<string, number>;
}

function reason(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
}

async function serverVersion(client: KubeClient, namespace: string): Promise<{ server: string; serverUnavailable?: string }> {
  // The deadline covers reading the values too, not only the request.
  const deadline = performance.now() + VERSION_TIMEOUT_MS;
  try {
    const values = await readLinkerdConfig(client, namespace, { deadline });
    if (values === undefined) return { server: UNAVAILABLE, serverUnavailable: `no linkerd-config ConfigMap in namespace ${namespace}` };
    const v = values.linkerdVersion;
    if (typeof v === 'string' && v !== '') return { server: v };
    return { server: UNAVAILABLE, serverUnavailable: `linkerd-config in namespace ${namespace} has no linkerdVersion` };
  } catch (e) {
    return { server: UNAVAILABLE, serverUnavailable: reason(e) };
  }
}

async function proxyVersions(client: KubeClient, controlPlaneNs: string, namespace?: string): Promise<Map<string, number> | undefined> {
  try {
    const pods = await client.list('pods', { namespace, labelSelector: `${CONTROL_PLANE_NS_LABEL}=${controlPlaneNs}` });
    const counts = new Map<string, number>();
    for (const pod of pods) {
      const v = proxyVersionOf(pod);
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    if (counts.size === 0) return undefined;
    return new Map([...counts].sort(([a], [b]) => a.localeCompare(b)));
  } catch {
    return undefined;
  }
}

/**
 * The server side of `linkerd version`: never throws; every failure (no kubeconfig,
 * unreachable cluster, no linkerd-config) reads as `unavailable`.
 */
export async function readVersions(cluster: KubeSelection & { linkerdNamespace: string }, o: { proxy: boolean; namespace?: string }): Promise<Versions> {
  let client: KubeClient;
  try {
    client = await connectKube(cluster, { timeoutMs: VERSION_TIMEOUT_MS });
  } catch (e) {
    const down = { server: UNAVAILABLE, serverUnavailable: reason(e) };
    return o.proxy ? { ...down, proxies: undefined } : down;
  }
  try {
    const ns = cluster.linkerdNamespace;
    const [server, proxies] = await Promise.all([serverVersion(client, ns), o.proxy ? proxyVersions(client, ns, o.namespace) : undefined]);
    return o.proxy ? { ...server, proxies } : server;
  } finally {
    client.close();
  }
}
