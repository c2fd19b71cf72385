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

export const VIZ_INSTALL_NAMESPACE = 'linkerd-viz';

/**
 * Where viz is installed, as linkerd's GetNamespaceWithExtensionLabel finds it: `named` (which must
 * carry the viz label), else the namespace labelled `linkerd.io/extension: viz`. A user who may not
 * list namespaces (a namespace-scoped user; linkerd/linkerd2#13169) is answered with viz's install
 * namespace, `linkerd-viz` (read when the user may, so its annotations count), instead of failing.
 */
export async function findVizNamespace(kube: KubeClient, named?: string): Promise<Namespace> {
  if (named) {
    const ns = await kube.find('namespaces', named);
    if (!ns) throw new Error(`namespaces "${named}" not found`);
    if (ns.metadata?.labels?.[EXTENSION_LABEL] !== 'viz') throw new Error('This is not a linkerd-viz namespace');
    return ns;
  }
  try {
    const labelled = await kube.list('namespaces', { labelSelector: EXTENSION_LABEL });
    const ns = labelled.find((n) => n.metadata?.labels?.[EXTENSION_LABEL] === 'viz');
    if (!ns) throw new Error(NOT_FOUND);
    return ns;
  } catch (e) {
    if (!isKubeError(e, 'forbidden')) throw e;
  }
  try {
    const ns = await kube.find('namespaces', VIZ_INSTALL_NAMESPACE);
    if (!ns) throw new Error(NOT_FOUND);
    return ns;
  } catch (e) {
    if (isKubeError(e, 'forbidden')) return { metadata: { name: VIZ_INSTALL_NAMESPACE } };
    throw e;
  }
}

/**
 * The viz namespace (findVizNamespace), its failures in the real CLI's two lines: a cluster that
 * cannot be reached is `Kubernetes`, anything else (viz missing, a refusal) `Linkerd Viz`.
 */
export async function vizNamespace(kube: KubeClient, override?: string): Promise<Namespace> {
  try {
    return await findVizNamespace(kube, override);
  } catch (e) {
    if (isKubeError(e) && KUBERNETES_FAILURES.has(e.kind)) throw cannotConnect('Kubernetes', e.message);
    throw cannotConnect('Linkerd Viz', (e as Error).message);
  }
}

/** The `prometheusUrl` viz was installed with (recorded on its namespace), or undefined. */
export function externalPrometheusOf(ns: Namespace): string | undefined {
  return ns.metadata?.annotations?.[EXTERNAL_PROMETHEUS] || undefined;
}
