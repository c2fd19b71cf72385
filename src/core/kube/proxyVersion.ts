import type { Pod } from 'kubernetes-types/core/v1.js';
import { PROXY_CONTAINER_NAME } from '../mesh/names.js';

/**
 * The tag of a pod's `linkerd-proxy` image (`cr.l5d.io/linkerd/proxy:edge-26.9.1` →
 * `edge-26.9.1`), looking in initContainers (native sidecar) then containers; `''` when the
 * pod has no proxy or its image has no tag.
 */
export function proxyVersionOf(pod: Pod): string {
  const containers = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  const proxy = containers.find((c) => c.name === PROXY_CONTAINER_NAME);
  if (!proxy?.image) return '';
  const image = proxy.image.split('@')[0] ?? '';
  const lastSlash = image.lastIndexOf('/');
  const colon = image.lastIndexOf(':');
  return colon > lastSlash ? image.slice(colon + 1) : '';
}
