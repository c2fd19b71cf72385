import { workloadKind } from '../../core/inject/kinds.js';
import { list, record, str, stringMap, type InputObject, type Path } from './objects.js';
import { PROXY_CONTAINER_NAME } from '../../core/mesh/names.js';

/*
 * A workload's pod template as the policy controller sees a pod: labels, annotations, the named
 * TCP ports of every container and init container (native sidecars are init containers with
 * `restartPolicy: Always`), and its httpGet and gRPC probes. The workload kinds and their template paths are
 * inject's table (core/inject/kinds.ts).
 */

export interface ContainerPort {
  readonly name?: string;
  readonly number: number;
  readonly container: string;
}

/**
 * A probe the kubelet sends over the network: `http` (an httpGet probe, which the policy
 * controller gives a probe route), or `https` (httpGet with scheme HTTPS) and `grpc`, which it
 * does not recognise and so gives no probe route.
 */
export interface Probe {
  readonly port: number;
  readonly container: string;
  readonly kind: 'livenessProbe' | 'readinessProbe' | 'startupProbe';
  readonly type: 'http' | 'https' | 'grpc';
  readonly path: Path;
}

export interface Workload {
  readonly object: InputObject;
  readonly namespace: string;
  /** Path from the object to its pod template (empty for a Pod). */
  readonly templatePath: Path;
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
  /** TCP ports of every container and init container. */
  readonly ports: readonly ContainerPort[];
  /** httpGet and gRPC probes, their ports resolved. */
  readonly probes: readonly Probe[];
  /** A proxy is already in the spec (injected with --manual, or read from the cluster). */
  readonly hasProxy: boolean;
}

const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const;

function containerPorts(c: Record<string, unknown>, name: string): ContainerPort[] {
  const out: ContainerPort[] = [];
  for (const p of list(c.ports)) {
    const port = record(p);
    const protocol = str(port.protocol);
    if (protocol !== undefined && protocol.toUpperCase() !== 'TCP') continue;
    if (typeof port.containerPort !== 'number') continue;
    out.push({ name: str(port.name), number: port.containerPort, container: name });
  }
  return out;
}

/**
 * httpGet probes, their named ports resolved within the same container (case-insensitively, as the
 * controller does), and gRPC probes (a number only).
 */
function probes(c: Record<string, unknown>, name: string, ports: readonly ContainerPort[], base: Path): Probe[] {
  const out: Probe[] = [];
  for (const kind of PROBES) {
    const probe = record(c[kind]);
    const get = record(probe.httpGet);
    const grpc = record(probe.grpc);
    if (Object.keys(get).length > 0) {
      let port: number | undefined;
      if (typeof get.port === 'number') port = get.port;
      else if (typeof get.port === 'string') port = ports.find((p) => p.name?.toLowerCase() === String(get.port).toLowerCase())?.number;
      const type = str(get.scheme)?.toUpperCase() === 'HTTPS' ? 'https' : 'http';
      if (port !== undefined) out.push({ port, container: name, kind, type, path: [...base, kind, 'httpGet', 'port'] });
    } else if (typeof grpc.port === 'number') {
      out.push({ port: grpc.port, container: name, kind, type: 'grpc', path: [...base, kind, 'grpc', 'port'] });
    }
  }
  return out;
}

/** The pod template of a workload object, or undefined for a kind without one. */
export function workloadOf(object: InputObject): Workload | undefined {
  const kind = workloadKind(object.kind.toLowerCase());
  if (!kind) return undefined;
  let template: Record<string, unknown> = object.body;
  for (const key of kind.podTemplate) template = record(template[key]);
  const meta = record(template.metadata);
  const spec = record(template.spec);
  const ports: ContainerPort[] = [];
  const found: Probe[] = [];
  let hasProxy = false;
  for (const field of ['initContainers', 'containers'] as const) {
    list(spec[field]).forEach((item, i) => {
      const c = record(item);
      const name = str(c.name) ?? '';
      if (name === PROXY_CONTAINER_NAME) hasProxy = true;
      const own = containerPorts(c, name);
      ports.push(...own);
      found.push(...probes(c, name, own, [...kind.podTemplate, 'spec', field, i]));
    });
  }
  return {
    object,
    namespace: object.namespace,
    templatePath: kind.podTemplate,
    labels: stringMap(meta.labels),
    annotations: stringMap(meta.annotations),
    ports,
    probes: found,
    hasProxy,
  };
}

export const describeWorkload = (w: Workload) => `${w.object.kind.toLowerCase()}/${w.object.name}`;
