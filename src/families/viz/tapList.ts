import type { Pod } from 'kubernetes-types/core/v1.js';
import { connectKube } from '../../core/kube/kubeClient.js';
import type { KubeSelection } from '../../core/kube/kubeconfig.js';
import { CONTROL_PLANE_NS_LABEL } from '../../core/mesh/names.js';

/*
 * `viz list` (linkerd's viz/cmd/list.go): the meshed pods of a namespace (or all), grouped by
 * whether tap reaches them — enabled by the tap injector, disabled by annotation, or injected
 * before viz was there (to restart).
 */

export const TAP_ENABLED = 'viz.linkerd.io/tap-enabled';
export const TAP_DISABLED = 'viz.linkerd.io/disable-tap';

export interface TapList {
  enabled: string[];
  disabled: string[];
  missing: string[];
}

const isTrue = (v: string | undefined) => v !== undefined && /^(1|t|T|TRUE|true|True)$/.test(v);

/** Pods of this control plane (`linkerd.io/control-plane-ns=<-L>`), each as `<ns>/<name>`, by tap state. */
export function tapStates(pods: readonly Pod[], controlPlaneNamespace: string): TapList {
  const out: TapList = { enabled: [], disabled: [], missing: [] };
  for (const pod of pods) {
    if (pod.metadata?.labels?.[CONTROL_PLANE_NS_LABEL] !== controlPlaneNamespace) continue;
    const name = `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
    const annotations = pod.metadata.annotations ?? {};
    if (isTrue(annotations[TAP_DISABLED])) out.disabled.push(name);
    else if (!isTrue(annotations[TAP_ENABLED])) out.missing.push(name);
    else out.enabled.push(name);
  }
  return out;
}

/** The pods of `namespace` (the context's when undefined; all with `allNamespaces`). */
export async function listTapPods(
  req: { cluster: KubeSelection; controlPlaneNamespace: string; namespace?: string; allNamespaces: boolean },
  env: NodeJS.ProcessEnv,
): Promise<TapList> {
  const client = await connectKube(req.cluster, { env });
  try {
    const namespace = req.allNamespaces ? undefined : req.namespace || client.namespace;
    return tapStates(await client.list('pods', { namespace }), req.controlPlaneNamespace);
  } finally {
    client.close();
  }
}
