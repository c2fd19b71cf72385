import type { Container, Pod } from 'kubernetes-types/core/v1.js';
import { PROXY_CONTAINER_NAME } from './names.js';

/** The pod's `linkerd-proxy` container (native sidecar first), if it has one. */
export function proxyContainer(pod: Pod): Container | undefined {
  return [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].find((c) => c.name === PROXY_CONTAINER_NAME);
}
