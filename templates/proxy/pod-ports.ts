import type { PodSpec } from 'kubernetes-types/core/v1.js';
import { PROXY_CONTAINER_NAME } from '../../src/core/mesh/names.js';

/**
 * LINKERD2_PROXY_INBOUND_PORTS: every port the pod's containers declare plus integer HTTP probe
 * ports, de-duplicated and sorted as strings (which is what the real injector does).
 */
export function podInboundPorts(spec: PodSpec): string {
  const ports = new Set<string>();
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the user's manifest is not validated against PodSpec
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? []).filter((i) => i.restartPolicy === 'Always')]) {
    if (c.name === PROXY_CONTAINER_NAME) continue;
    for (const p of c.ports ?? []) ports.add(String(p.containerPort));
    for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) {
      const port = probe?.httpGet?.port;
      if (typeof port === 'number') ports.add(String(port));
    }
  }
  return [...ports].sort().join(',');
}
