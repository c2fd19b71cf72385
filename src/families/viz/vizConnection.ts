import type { Namespace } from 'kubernetes-types/core/v1.js';
import { UserError } from '../../core/errors.js';
import { connectKube, type KubeClient } from '../../core/kube/kubeClient.js';
import type { KubeSelection } from '../../core/kube/kubeconfig.js';
import { isKubeError, type KubeErrorKind } from '../../core/kube/kubeError.js';
import { EXTENSION_LABEL } from '../../core/mesh/names.js';
import { EXTERNAL_PROMETHEUS, NOT_FOUND } from './check/facts.js';

/*
 * How the viz data commands reach the cluster before they talk to viz itself (linkerd's
 * viz/pkg/api CheckClientOrExit): the API server, then the namespace labelled
 * `linkerd.io/extension: viz` (or `--viz-namespace`). A failure is the real two lines and exit 1.
 */

/** Failures the real CLI's `kubernetes-api` checks report before viz is looked for. */
const KUBERNETES_FAILURES = new Set<KubeErrorKind>(['config', 'unreachable', 'tls', 'timeout', 'unauthorized']);

export const VALIDATE_VIZ = 'Validate the install with: linkerd viz check';

/** `Cannot connect to <what>: <why>` and the hint line, printed as they are. */
export function cannotConnect(what: 'Kubernetes' | 'Linkerd Viz', why: string): UserError {
  return UserError.verbatim(`Cannot connect to ${what}: ${why}\n${VALIDATE_VIZ}\n`);
}

export async function connectCluster(cluster: KubeSelection, env: NodeJS.ProcessEnv): Promise<KubeClient> {
  try {
    return await connectKube(cluster, { env });
  } catch (e) {
    throw cannotConnect('Kubernetes', (e as Error).message);
  }
}

/** The viz namespace: `override` (which must carry the viz label) or the one labelled so. */
export async function vizNamespace(kube: KubeClient, override?: string): Promise<Namespace> {
  try {
    if (override) {
      const ns = await kube.find('namespaces', override);
      if (!ns) throw new Error(`namespaces "${override}" not found`);
      if (ns.metadata?.labels?.[EXTENSION_LABEL] !== 'viz') throw new Error('This is not a linkerd-viz namespace');
      return ns;
    }
    const labelled = await kube.list('namespaces', { labelSelector: EXTENSION_LABEL });
    const ns = labelled.find((n) => n.metadata?.labels?.[EXTENSION_LABEL] === 'viz');
    if (!ns) throw new Error(NOT_FOUND);
    return ns;
  } catch (e) {
    if (isKubeError(e) && KUBERNETES_FAILURES.has(e.kind)) throw cannotConnect('Kubernetes', e.message);
    throw cannotConnect('Linkerd Viz', (e as Error).message);
  }
}

/** The `prometheusUrl` viz was installed with (recorded on its namespace), or undefined. */
export function externalPrometheusOf(ns: Namespace): string | undefined {
  return ns.metadata?.annotations?.[EXTERNAL_PROMETHEUS] || undefined;
}
