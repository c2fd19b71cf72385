import { UserError } from '../../../core/errors.js';
import type { KubeClient } from '../../../core/kube/kubeClient.js';
import { EXTENSION_LABEL } from '../../../core/mesh/names.js';
import { NOT_FOUND } from '../check/facts.js';

/*
 * The part of linkerd's CheckClientOrExit that tap, top and profile rely on: the cluster answers
 * and viz is installed (a namespace labelled `linkerd.io/extension: viz`). The real command also
 * port-forwards to metrics-api here, then discards the connection; tap never uses it.
 */

const VALIDATE = 'Validate the install with: linkerd viz check';

export async function ensureVizReachable(client: KubeClient): Promise<void> {
  let labelled;
  try {
    labelled = await client.list('namespaces', { labelSelector: EXTENSION_LABEL });
  } catch (e) {
    throw UserError.verbatim(`Cannot connect to Kubernetes: ${(e as Error).message}\n${VALIDATE}\n`);
  }
  if (!labelled.some((n) => n.metadata?.labels?.[EXTENSION_LABEL] === 'viz'))
    throw UserError.verbatim(`Cannot connect to Linkerd Viz: ${NOT_FOUND}\n${VALIDATE}\n`);
}
