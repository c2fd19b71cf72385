import { UserError } from '../../../core/errors.js';
import { runningPodOf } from '../../../core/kube/grpcForward.js';
import { connectKube, type KubeClient } from '../../../core/kube/kubeClient.js';
import type { KubeSelection } from '../../../core/kube/kubeconfig.js';
import { findVizNamespace } from '../vizConnection.js';
import { METRICS_API_DEPLOYMENT, metricsApiAt, metricsApiOfPod, type MetricsApi } from './client.js';

/*
 * linkerd's CheckClientOrExit for the viz data commands, reading only what the query needs:
 * `can initialize the client` and `can query the Kubernetes API` (GET /version), where viz is
 * (the namespace named by --viz-namespace, else the one labelled `linkerd.io/extension: viz`),
 * and the running metrics-api pod of that namespace (two LISTs there). Nothing is read in the
 * namespaces the query is about, so the reads do not grow with the cluster. Where viz is: the
 * family's one findVizNamespace (vizConnection.ts), which copes with a namespace-scoped user.
 */

export interface MetricsApiTarget {
  cluster: KubeSelection;
  apiAddr?: string;
  vizNamespace?: string;
  env?: NodeJS.ProcessEnv;
}

const reason = (e: unknown) => (e instanceof Error ? e.message : String(e));

function cannotConnect(what: 'Kubernetes' | 'Linkerd Viz', e: unknown): UserError {
  return UserError.verbatim(`Cannot connect to ${what}: ${reason(e)}\nValidate the install with: linkerd viz check\n`);
}

export interface OpenedMetricsApi {
  api: MetricsApi;
  /** The Kubernetes client of the pre-check (its request count is what the benchmark reads). */
  kube: KubeClient;
  close(): void;
}

/** The pre-check, then the client: port-forwarded to the metrics-api pod, or at `--api-addr`. */
export async function openMetricsApi(target: MetricsApiTarget): Promise<OpenedMetricsApi> {
  let kube: KubeClient;
  try {
    kube = await connectKube(target.cluster, { env: target.env });
  } catch (e) {
    throw cannotConnect('Kubernetes', e);
  }
  let api: MetricsApi;
  try {
    try {
      await kube.serverVersion();
    } catch (e) {
      throw cannotConnect('Kubernetes', e);
    }
    try {
      const ns = (await findVizNamespace(kube, target.vizNamespace)).metadata?.name ?? '';
      if (target.apiAddr) api = metricsApiAt(target.apiAddr);
      else api = await metricsApiOfPod(kube, ns, await runningPodOf(kube, ns, METRICS_API_DEPLOYMENT));
    } catch (e) {
      throw cannotConnect('Linkerd Viz', e);
    }
  } catch (e) {
    kube.close();
    throw e;
  }
  return {
    api,
    kube,
    close() {
      api.close();
      kube.close();
    },
  };
}
