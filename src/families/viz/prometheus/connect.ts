import { UserError } from '../../../core/errors.js';
import { runningPodOf } from '../../../core/kube/grpcForward.js';
import type { KubeSelection } from '../../../core/kube/kubeconfig.js';
import { listenForward } from '../../../core/kube/portForwardListener.js';
import { connectCluster, externalPrometheusOf, vizNamespace } from '../vizConnection.js';
import { prometheusAt, type PrometheusClient } from './client.js';

/*
 * Where `viz stat-inbound`/`stat-outbound` find Prometheus (linkerd's viz/pkg/api): the
 * `--prometheusURL` given (no cluster access at all), else the external Prometheus viz was
 * installed with (`prometheusUrl`, recorded on the viz namespace), else viz's own Prometheus
 * through a port-forward to its pod's port 9090.
 */

export const PROMETHEUS_DEPLOYMENT = 'prometheus';
export const PROMETHEUS_PORT = 9090;

export interface PrometheusTarget {
  cluster: KubeSelection;
  env: NodeJS.ProcessEnv;
  /** `--prometheusURL`. */
  url?: string;
  /** `--viz-namespace`. */
  vizNamespace?: string;
  timeoutMs?: number;
}

function externalUrl(text: string, what: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UserError(`invalid ${what} "${text}": not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UserError(`invalid ${what} "${text}": only http and https URLs are supported`);
  return url.href;
}

export async function connectPrometheus(t: PrometheusTarget): Promise<PrometheusClient> {
  if (t.url) return prometheusAt(externalUrl(t.url, '--prometheusURL'), { timeoutMs: t.timeoutMs, proxy: true });
  const kube = await connectCluster(t.cluster, t.env);
  try {
    const ns = await vizNamespace(kube, t.vizNamespace);
    const external = externalPrometheusOf(ns);
    if (external) {
      kube.close();
      return prometheusAt(externalUrl(external, 'prometheusUrl'), { timeoutMs: t.timeoutMs, proxy: true });
    }
    const namespace = ns.metadata?.name ?? '';
    let pod: string;
    try {
      pod = await runningPodOf(kube, namespace, PROMETHEUS_DEPLOYMENT);
    } catch (e) {
      throw new UserError((e as Error).message);
    }
    const listener = await listenForward(kube, namespace, pod, PROMETHEUS_PORT);
    return prometheusAt(`http://127.0.0.1:${listener.port}`, {
      timeoutMs: t.timeoutMs,
      onClose: () => {
        listener.close();
        kube.close();
      },
    });
  } catch (e) {
    kube.close();
    throw e;
  }
}
