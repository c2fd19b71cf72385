import { connectKube, type KubeClient } from './kubeClient.js';
import type { KubeSelection } from './kubeconfig.js';
import { readLinkerdConfig } from './linkerdConfig.js';
import { proxyVersionOf } from './proxyVersion.js';

/** What `linkerd version` reports when the control plane cannot be asked. */
export const UNAVAILABLE = 'unavailable';

/** `linkerd version` uses a 5 s deadline for each cluster read. */
const VERSION_TIMEOUT_MS = 5_000;

const CONTROL_PLANE_NS_LABEL = 'linkerd.io/control-plane-ns';

export interface Versions {
  /** `linkerdVersion` from linkerd-config, or `unavailable`. */
  server: string;
  /** With `proxy`: proxy image tag → number of pods; `undefined` when unavailable or no pods. */
  proxies?: Map<string, number>;
}

async function serverVersion(client: KubeClient, namespace: string): Promise<string> {
  try {
    const values = await readLinkerdConfig(client, namespace);
    const v = values?.linkerdVersion;
    return typeof v === 'string' && v !== '' ? v : UNAVAILABLE;
  } catch {
    return UNAVAILABLE;
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
export async function readVersions(
  cluster: KubeSelection & { linkerdNamespace: string },
  o: { proxy: boolean; namespace?: string },
): Promise<Versions> {
  let client: KubeClient;
  try {
    client = await connectKube(cluster, { timeoutMs: VERSION_TIMEOUT_MS });
  } catch {
    return o.proxy ? { server: UNAVAILABLE, proxies: undefined } : { server: UNAVAILABLE };
  }
  try {
    const ns = cluster.linkerdNamespace;
    const [server, proxies] = await Promise.all([serverVersion(client, ns), o.proxy ? proxyVersions(client, ns, o.namespace) : undefined]);
    return o.proxy ? { server, proxies } : { server };
  } finally {
    client.close();
  }
}
