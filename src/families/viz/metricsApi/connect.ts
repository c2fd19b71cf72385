import { UserError } from '../../../core/errors.js';
import { runningPodOf } from '../../../core/kube/grpcForward.js';
import { connectKube, type KubeClient } from '../../../core/kube/kubeClient.js';
import { isKubeError } from '../../../core/kube/kubeError.js';
import type { KubeSelection } from '../../../core/kube/kubeconfig.js';
import { EXTENSION_LABEL } from '../../../core/mesh/names.js';
import { METRICS_API_DEPLOYMENT, metricsApiAt, metricsApiOfPod, type MetricsApi } from './client.js';

/*
 * linkerd's CheckClientOrExit for the viz data commands, reading only what the query needs:
 * `can initialize the client` and `can query the Kubernetes API` (GET /version), where viz is
 * (the namespace named by --viz-namespace, else the one labelled `linkerd.io/extension: viz`),
 * and the running metrics-api pod of that namespace (two LISTs there). Nothing is read in the
 * namespaces the query is about, so the reads do not grow with the cluster. When the user may not
 * list namespaces (a namespace-scoped user; linkerd/linkerd2#13169), viz is looked for in its
 * install namespace, `linkerd-viz`, instead of failing.
 */

export const VIZ_INSTALL_NAMESPACE = 'linkerd-viz';
const NOT_FOUND = `namespace with label "${EXTENSION_LABEL}: viz" not found`;

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

/** Where viz is installed, as linkerd's GetNamespaceWithExtensionLabel finds it. */
export async function findVizNamespace(kube: KubeClient, named?: string): Promise<string> {
  if (named) {
    const ns = await kube.find('namespaces', named);
    if (!ns) throw new Error(`namespaces "${named}" not found`);
    if (ns.metadata?.labels?.[EXTENSION_LABEL] !== 'viz') throw new Error('This is not a linkerd-viz namespace');
    return named;
  }
  try {
    const labelled = await kube.list('namespaces', { labelSelector: EXTENSION_LABEL });
    const ns = labelled.find((n) => n.metadata?.labels?.[EXTENSION_LABEL] === 'viz');
    if (!ns?.metadata?.name) throw new Error(NOT_FOUND);
    return ns.metadata.name;
  } catch (e) {
    if (isKubeError(e) && e.kind === 'forbidden') return VIZ_INSTALL_NAMESPACE;
    throw e;
  }
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
      const ns = await findVizNamespace(kube, target.vizNamespace);
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
