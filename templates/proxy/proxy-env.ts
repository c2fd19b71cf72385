import type { EnvVar } from 'kubernetes-types/core/v1.js';
import type { Values } from '../../src/core/values/index.js';
import { UserError } from '../../src/core/errors.js';
import type { ProxyPodContext } from './context.js';
import { serviceAccountIdentity, trustDomainOf } from './identity-names.js';
import { podInboundPorts } from './pod-ports.js';
import { traceEnv } from './tracing.js';
import { PROXY_CONTAINER_NAME, TRUST_ANCHORS_ENV, TRUST_BUNDLE_KEY, TRUST_ROOTS_CONFIGMAP } from '../../src/core/mesh/names.js';

const fieldRef = (name: string, fieldPath: string): EnvVar => ({ name, valueFrom: { fieldRef: { fieldPath } } });
const env = (name: string, value: string | number | boolean): EnvVar => ({ name, value: String(value) });

/** Helm's `snakecase | upper`: keepAliveInterval → KEEP_ALIVE_INTERVAL. */
function envKey(s: string): string {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toUpperCase();
}

/** Go templates range over maps in byte order of the keys; so do we (and without ICU's collator). */
const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/** One env var per leaf of proxy.inbound / proxy.outbound: LINKERD2_PROXY_<DIR>_<SCOPE>_<PROTO>_<PARAM>. */
function directionParams(direction: 'inbound' | 'outbound', tree: Record<string, unknown> | undefined): EnvVar[] {
  const out: EnvVar[] = [];
  for (const [scope, protos] of Object.entries(tree ?? {}).sort(byKey)) {
    for (const [proto, params] of Object.entries((protos ?? {}) as Record<string, unknown>).sort(byKey)) {
      for (const [param, value] of Object.entries((params ?? {}) as Record<string, unknown>).sort(byKey)) {
        out.push(env(`LINKERD2_PROXY_${envKey(direction)}_${envKey(scope)}_${envKey(proto)}_${envKey(param)}`, String(value)));
      }
    }
  }
  return out;
}

/** Helm's truthiness (`{{ if .Values.x }}`): given, and not empty, false or zero. */
function notEmpty<T>(v: T): v is NonNullable<T> {
  return v !== undefined && v !== null && v !== '' && v !== false && v !== 0;
}

export const TRUST_ANCHORS_REQUIRED = 'Please provide the identity trust anchors';

/** The proxy's environment, in the order the real injector writes it (the chart's _proxy.tpl). */
export function proxyEnv(values: Values, ctx: ProxyPodContext): EnvVar[] {
  const p = values.proxy;
  const ns = ctx.controlPlaneNamespace;
  const cd = values.clusterDomain;
  const td = trustDomainOf(values);
  const listen = values.disableIPv6 ? '0.0.0.0' : '[::]';
  const isDestination = ctx.component === 'linkerd-destination';
  const isIdentity = ctx.component === 'linkerd-identity';
  const workers = p.runtime.workers;
  const e: EnvVar[] = [
    fieldRef('_pod_name', 'metadata.name'),
    fieldRef('_pod_ns', 'metadata.namespace'),
    fieldRef('_pod_uid', 'metadata.uid'),
    fieldRef('_pod_ip', 'status.podIP'),
    fieldRef('_pod_nodeName', 'spec.nodeName'),
    env('_pod_containerName', values.proxyContainerName || PROXY_CONTAINER_NAME),
    env('LINKERD2_PROXY_CORES', notEmpty(p.cores) ? p.cores : workers.minimum),
    env('LINKERD2_PROXY_CORES_MIN', notEmpty(p.cores) ? p.cores : workers.minimum),
  ];
  if (notEmpty(workers.maximum)) e.push(env('LINKERD2_PROXY_CORES_MAX', workers.maximum));
  if (notEmpty(workers.maximumCPURatio)) e.push(env('LINKERD2_PROXY_CORES_MAX_RATIO', workers.maximumCPURatio));
  if (notEmpty(p.requireIdentityOnInboundPorts)) e.push(env('LINKERD2_PROXY_INBOUND_PORTS_REQUIRE_IDENTITY', p.requireIdentityOnInboundPorts));
  if (notEmpty(p.requireTLSOnInboundPorts)) e.push(env('LINKERD2_PROXY_INBOUND_PORTS_REQUIRE_TLS', p.requireTLSOnInboundPorts));
  e.push(
    env('LINKERD2_PROXY_SHUTDOWN_ENDPOINT_ENABLED', p.enableShutdownEndpoint),
    env('LINKERD2_PROXY_LOG', p.logLevel + (p.logHTTPHeaders === 'insecure' ? '' : ',[{headers}]=off,[{request}]=off')),
    env('LINKERD2_PROXY_LOG_FORMAT', p.logFormat),
    env('LINKERD2_PROXY_DESTINATION_SVC_ADDR', isDestination ? 'localhost.:8086' : `linkerd-dst-headless.${ns}.svc.${cd}.:8086`),
    env('LINKERD2_PROXY_DESTINATION_PROFILE_NETWORKS', values.clusterNetworks),
    env('LINKERD2_PROXY_POLICY_SVC_ADDR', isDestination ? 'localhost.:8090' : `linkerd-policy.${ns}.svc.${cd}.:8090`),
    env('LINKERD2_PROXY_POLICY_WORKLOAD', '{"ns":"$(_pod_ns)", "pod":"$(_pod_name)"}\n'),
    env('LINKERD2_PROXY_INBOUND_DEFAULT_POLICY', p.defaultInboundPolicy),
    env('LINKERD2_PROXY_POLICY_CLUSTER_NETWORKS', values.clusterNetworks),
    env('LINKERD2_PROXY_CONTROL_STREAM_INITIAL_TIMEOUT', p.control.streams.initialTimeout),
    env('LINKERD2_PROXY_CONTROL_STREAM_IDLE_TIMEOUT', p.control.streams.idleTimeout),
    env('LINKERD2_PROXY_CONTROL_STREAM_LIFETIME', p.control.streams.lifetime),
  );
  if (notEmpty(p.inboundConnectTimeout)) e.push(env('LINKERD2_PROXY_INBOUND_CONNECT_TIMEOUT', p.inboundConnectTimeout));
  if (notEmpty(p.outboundConnectTimeout)) e.push(env('LINKERD2_PROXY_OUTBOUND_CONNECT_TIMEOUT', p.outboundConnectTimeout));
  if (notEmpty(p.outboundDiscoveryCacheUnusedTimeout)) e.push(env('LINKERD2_PROXY_OUTBOUND_DISCOVERY_IDLE_TIMEOUT', p.outboundDiscoveryCacheUnusedTimeout));
  if (notEmpty(p.inboundDiscoveryCacheUnusedTimeout)) e.push(env('LINKERD2_PROXY_INBOUND_DISCOVERY_IDLE_TIMEOUT', p.inboundDiscoveryCacheUnusedTimeout));
  if (p.disableOutboundProtocolDetectTimeout) e.push(env('LINKERD2_PROXY_OUTBOUND_DETECT_TIMEOUT', '365d'));
  if (p.disableInboundProtocolDetectTimeout) e.push(env('LINKERD2_PROXY_INBOUND_DETECT_TIMEOUT', '365d'));
  e.push(
    env('LINKERD2_PROXY_CONTROL_LISTEN_ADDR', `${listen}:${p.ports.control}`),
    env('LINKERD2_PROXY_ADMIN_LISTEN_ADDR', `${listen}:${p.ports.admin}`),
    env('LINKERD2_PROXY_OUTBOUND_LISTEN_ADDR', `127.0.0.1:${p.ports.outbound}`),
    env('LINKERD2_PROXY_OUTBOUND_LISTEN_ADDRS', `127.0.0.1:${p.ports.outbound}${values.disableIPv6 ? '' : `,[::1]:${p.ports.outbound}`}`),
    env('LINKERD2_PROXY_INBOUND_LISTEN_ADDR', `${listen}:${p.ports.inbound}`),
    fieldRef('LINKERD2_PROXY_INBOUND_IPS', 'status.podIPs'),
    env('LINKERD2_PROXY_INBOUND_PORTS', p.podInboundPorts || podInboundPorts(ctx.podSpec)),
  );
  if (p.isGateway) e.push(env('LINKERD2_PROXY_INBOUND_GATEWAY_SUFFIXES', `svc.${cd}.`));
  if (p.isIngress) e.push(env('LINKERD2_PROXY_INGRESS_MODE', 'true'));
  e.push(
    env('LINKERD2_PROXY_DESTINATION_PROFILE_SUFFIXES', p.enableExternalProfiles ? '.' : `svc.${cd}.`),
    env('LINKERD2_PROXY_INBOUND_ACCEPT_KEEPALIVE', '10000ms'),
    env('LINKERD2_PROXY_OUTBOUND_CONNECT_KEEPALIVE', '10000ms'),
    env('LINKERD2_PROXY_INBOUND_ACCEPT_USER_TIMEOUT', '30s'),
    env('LINKERD2_PROXY_OUTBOUND_CONNECT_USER_TIMEOUT', '30s'),
    env('LINKERD2_PROXY_OUTBOUND_METRICS_HOSTNAME_LABELS', p.metrics.hostnameLabels),
    ...traceEnv(values, ctx),
    ...directionParams('inbound', p.inbound),
    ...directionParams('outbound', p.outbound),
  );
  if (notEmpty(p.opaquePorts)) e.push(env('LINKERD2_PROXY_INBOUND_PORTS_DISABLE_PROTOCOL_DETECTION', p.opaquePorts));
  e.push(
    env('LINKERD2_PROXY_DESTINATION_CONTEXT', '{"ns":"$(_pod_ns)", "nodeName":"$(_pod_nodeName)", "pod":"$(_pod_name)"}\n'),
    fieldRef('_pod_sa', 'spec.serviceAccountName'),
    env('_l5d_ns', ns),
    env('_l5d_trustdomain', td),
    env('LINKERD2_PROXY_IDENTITY_DIR', '/var/run/linkerd/identity/end-entity'),
    trustAnchorsEnv(values, ctx),
    env(
      'LINKERD2_PROXY_IDENTITY_TOKEN_FILE',
      values.identity.serviceAccountTokenProjection ? '/var/run/secrets/tokens/linkerd-identity-token' : '/var/run/secrets/kubernetes.io/serviceaccount/token',
    ),
    env('LINKERD2_PROXY_IDENTITY_SVC_ADDR', isIdentity ? 'localhost.:8080' : `linkerd-identity-headless.${ns}.svc.${cd}.:8080`),
    env('LINKERD2_PROXY_IDENTITY_LOCAL_NAME', `$(_pod_sa).$(_pod_ns).serviceaccount.identity.${ns}.${td}`),
    env('LINKERD2_PROXY_IDENTITY_SVC_NAME', serviceAccountIdentity('linkerd-identity', ns, ns, td)),
    env('LINKERD2_PROXY_DESTINATION_SVC_NAME', serviceAccountIdentity('linkerd-destination', ns, ns, td)),
    env('LINKERD2_PROXY_POLICY_SVC_NAME', serviceAccountIdentity('linkerd-destination', ns, ns, td)),
  );
  if (notEmpty(p.accessLog)) e.push(env('LINKERD2_PROXY_ACCESS_LOG', p.accessLog));
  if (notEmpty(p.shutdownGracePeriod)) e.push(env('LINKERD2_PROXY_SHUTDOWN_GRACE_PERIOD', p.shutdownGracePeriod));
  for (const extra of [...((p.additionalEnv ?? []) as EnvVar[]), ...((p.experimentalEnv ?? []) as EnvVar[])]) e.push(extra);
  return e;
}

function trustAnchorsEnv(values: Values, ctx: ProxyPodContext): EnvVar {
  if (ctx.component) {
    return {
      name: TRUST_ANCHORS_ENV,
      valueFrom: { configMapKeyRef: { name: TRUST_ROOTS_CONFIGMAP, key: TRUST_BUNDLE_KEY } },
    };
  }
  const pem = values.identityTrustAnchorsPEM.trim();
  if (!pem) {
    throw new UserError(TRUST_ANCHORS_REQUIRED, {
      hint: "Pass --identity-trust-anchors-file, or --values with the cluster's linkerd-config values, or run against the cluster.",
    });
  }
  return env(TRUST_ANCHORS_ENV, pem);
}
