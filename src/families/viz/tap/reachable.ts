import type { KubeClient } from '../../../core/kube/kubeClient.js';
import { vizNamespace } from '../vizConnection.js';

/*
 * The part of linkerd's CheckClientOrExit that tap, top and profile rely on: the cluster answers
 * and viz is installed (`--viz-namespace`, else the namespace labelled `linkerd.io/extension: viz`;
 * `linkerd-viz` for a user who may not list namespaces). The real command also port-forwards to
 * metrics-api here, then discards the connection; tap never uses it.
 */

export async function ensureVizReachable(client: KubeClient, override?: string): Promise<void> {
  await vizNamespace(client, override);
}
