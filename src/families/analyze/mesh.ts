import { INJECT_ANNOTATION } from '../../core/mesh/names.js';
/*
 * Linkerd facts the rules check against: annotation names and their values, the default opaque
 * ports, the policy controller's default policies and proxy protocols, and the API versions this
 * release's CRDs serve.
 */

export const INJECT = INJECT_ANNOTATION;
export const INJECT_VALUES = ['enabled', 'ingress', 'disabled'] as const;
export const DEFAULT_INBOUND_POLICY = 'config.linkerd.io/default-inbound-policy';
export const OPAQUE_PORTS = 'config.linkerd.io/opaque-ports';
export const SKIP_INBOUND_PORTS = 'config.linkerd.io/skip-inbound-ports';
export const SKIP_OUTBOUND_PORTS = 'config.linkerd.io/skip-outbound-ports';

/** Values of `accessPolicy`, `--default-inbound-policy` and the annotation (exact, lower-case). */
export const DEFAULT_POLICIES = ['all-unauthenticated', 'all-authenticated', 'cluster-unauthenticated', 'cluster-authenticated', 'deny', 'audit'] as const;
/** Policies that let an unauthenticated client (the kubelet) in. */
export const UNAUTHENTICATED_POLICIES = new Set(['all-unauthenticated', 'cluster-unauthenticated', 'audit']);
/** The cluster default when nothing else is known (`proxy.defaultInboundPolicy`). */
export const CLUSTER_DEFAULT_POLICY = 'all-unauthenticated';

export const PROXY_PROTOCOLS = ['unknown', 'HTTP/1', 'HTTP/2', 'gRPC', 'opaque', 'TLS'] as const;

/** `proxy.opaquePorts`: what the injector marks opaque unless an annotation replaces the list. */
export const DEFAULT_OPAQUE_PORTS = [25, 587, 3306, 4444, 5432, 6379, 9300, 11211] as const;

export const TRUST_DOMAIN = 'cluster.local';

export const POLICY_GROUP = 'policy.linkerd.io';
export const GATEWAY_GROUP = 'gateway.networking.k8s.io';

export interface ServedVersions {
  readonly served: readonly string[];
  /** Served but deprecated, with the CRD's deprecation warning. */
  readonly deprecated: Readonly<Record<string, string>>;
}

/** `group/Kind` → the versions this release's CRDs serve. */
export const SERVED: Readonly<Record<string, ServedVersions>> = {
  'policy.linkerd.io/Server': {
    served: ['v1alpha1', 'v1beta1', 'v1beta2', 'v1beta3'],
    deprecated: {
      v1alpha1: 'policy.linkerd.io/v1alpha1 Server is deprecated; use policy.linkerd.io/v1beta1 Server',
      v1beta1: 'policy.linkerd.io/v1beta1 Server is deprecated; use policy.linkerd.io/v1beta3 Server',
    },
  },
  'policy.linkerd.io/ServerAuthorization': {
    served: ['v1alpha1', 'v1beta1'],
    deprecated: { v1alpha1: 'policy.linkerd.io/v1alpha1 ServerAuthorization is deprecated; use policy.linkerd.io/v1beta1 ServerAuthorization' },
  },
  'policy.linkerd.io/AuthorizationPolicy': { served: ['v1alpha1'], deprecated: {} },
  'policy.linkerd.io/MeshTLSAuthentication': { served: ['v1alpha1'], deprecated: {} },
  'policy.linkerd.io/NetworkAuthentication': { served: ['v1alpha1'], deprecated: {} },
  'policy.linkerd.io/HTTPRoute': { served: ['v1alpha1', 'v1beta1', 'v1beta2', 'v1beta3'], deprecated: {} },
  'policy.linkerd.io/HTTPLocalRateLimitPolicy': { served: ['v1alpha1'], deprecated: {} },
  'policy.linkerd.io/EgressNetwork': { served: ['v1alpha1'], deprecated: {} },
  'workload.linkerd.io/ExternalWorkload': { served: ['v1alpha1', 'v1beta1'], deprecated: {} },
  'linkerd.io/ServiceProfile': { served: ['v1alpha1', 'v1alpha2'], deprecated: {} },
  'gateway.networking.k8s.io/HTTPRoute': { served: ['v1', 'v1beta1'], deprecated: {} },
  'gateway.networking.k8s.io/GRPCRoute': {
    served: ['v1', 'v1alpha2'],
    deprecated: { v1alpha2: 'gateway.networking.k8s.io/v1alpha2 GRPCRoute is deprecated; use gateway.networking.k8s.io/v1 GRPCRoute' },
  },
  'gateway.networking.k8s.io/TCPRoute': { served: ['v1alpha2'], deprecated: {} },
  'gateway.networking.k8s.io/TLSRoute': { served: ['v1alpha2'], deprecated: {} },
};

/** Whether this release serves an object's version (kinds it has no CRD for: yes). An unserved one cannot be applied. */
export const isServed = (o: { group: string; kind: string; version: string }) => SERVED[`${o.group}/${o.kind}`]?.served.includes(o.version) ?? true;

/** The newest served version of a kind (the storage version). */
export const newestServed = (v: ServedVersions) => v.served[v.served.length - 1] ?? '';

/** A port list annotation (`25,443,8000-8100`), as the proxy injector and policy controller read it. */
export interface PortEntry {
  readonly from: number;
  readonly to: number;
}

/**
 * Parses a port list as the policy controller does: numbers 1–65535 and increasing `a-b` ranges,
 * comma separated (whitespace trimmed, empty items skipped). It accepts no port names, anywhere:
 * one (like any bad entry) makes it ignore the whole list. Returns the reason for the first bad
 * entry instead.
 */
export function parsePortList(value: string, o: { allowZero?: boolean } = {}): PortEntry[] | string {
  const out: PortEntry[] = [];
  for (const raw of value.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const range = /^(\d+)-(\d+)$/.exec(item);
    const num = (s: string) => Number.parseInt(s, 10);
    const inRange = (n: number) => n <= 65535 && (n >= 1 || (o.allowZero === true && n === 0));
    if (range) {
      const from = num(range[1] ?? '');
      const to = num(range[2] ?? '');
      if (!inRange(from) || !inRange(to)) return `"${item}" is not a valid port range`;
      if (from > to) return `"${item}": a port range must be increasing`;
      out.push({ from, to });
    } else if (/^\d+$/.test(item)) {
      const n = num(item);
      if (!inRange(n)) return `"${item}" is not a valid port number`;
      out.push({ from: n, to: n });
    } else if (/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(item) && /[a-z]/.test(item)) {
      return `"${item}" is a port name, and the policy controller accepts only numbers and ranges`;
    } else {
      return `"${item}" is not a port number or range`;
    }
  }
  return out;
}

/** Whether a parsed list holds `port`. */
export function portListHas(entries: readonly PortEntry[], port: number): boolean {
  return entries.some((e) => e.from <= port && port <= e.to);
}
