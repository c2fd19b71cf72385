import type { Pod } from 'kubernetes-types/core/v1.js';
import type { KubeClient } from '../../core/kube/kubeClient.js';
import { getThroughPortForward } from '../../core/kube/portForwardHttp.js';

/*
 * The metrics commands: each pod's admin port (a container port whose name ends in the suffix)
 * reached through a port-forward, `GET /metrics`. Pods are fetched concurrently; a pod that is
 * not running, or whose fetch fails, is a result with an error, not a failure of the command.
 */

export interface MetricsResult {
  readonly pod: string;
  readonly container: string;
  readonly metrics?: string;
  readonly error?: string;
}

/** Largest metrics body kept per container; a proxy's are a few hundred KiB. */
export const MAX_METRICS_BYTES = 32 * 1024 * 1024;

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Each container of the pod with a port named `…suffix`, and the first such port of it. */
function adminPorts(pod: Pod, suffix: string): Array<{ container: string; port: number }> {
  const containers = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  return containers.flatMap((c) => {
    const port = (c.ports ?? []).find((p) => (p.name ?? '').endsWith(suffix));
    return port ? [{ container: c.name, port: port.containerPort }] : [];
  });
}

export async function fetchMetrics(kube: KubeClient, pods: readonly Pod[], suffix: string, timeoutMs: number): Promise<MetricsResult[]> {
  const perPod = await Promise.all(
    pods.map(async (pod): Promise<MetricsResult[]> => {
      const name = pod.metadata?.name ?? '';
      if (pod.status?.phase !== 'Running') return [{ pod: name, container: '', error: `pod not running: ${name}` }];
      return Promise.all(
        adminPorts(pod, suffix).map(async ({ container, port }) => {
          try {
            const metrics = await getThroughPortForward(kube, pod.metadata?.namespace ?? '', name, port, '/metrics', {
              timeoutMs,
              maxBytes: MAX_METRICS_BYTES,
            });
            return { pod: name, container, metrics };
          } catch (e) {
            return { pod: name, container, error: errorText(e) };
          }
        }),
      );
    }),
  );
  return perPod.flat().sort((a, b) => (a.pod === b.pod ? a.container.localeCompare(b.container) : a.pod.localeCompare(b.pod)));
}
