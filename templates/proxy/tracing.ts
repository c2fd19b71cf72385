import type { EnvVar, Volume, VolumeMount } from 'kubernetes-types/core/v1.js';
import type { Values } from '../../src/core/values/index.js';
import { UserError } from '../../src/core/errors.js';
import { PODINFO_VOLUME, type ProxyPodContext } from './context.js';
import { serviceAccountIdentity, trustDomainOf } from './identity-names.js';

/*
 * Proxy tracing (`proxy.tracing.*`, the chart's _proxy.tpl). When enabled the proxy exports one OpenTelemetry span
 * per request to the collector and describes itself with the pod's labels and annotations, which
 * the kubelet writes into the `linkerd-podinfo` downward-API volume. The proxy reads the
 * `resource.opentelemetry.io/*` annotations and `app.kubernetes.io/*` labels from those files.
 */

export const PODINFO_MOUNT_PATH = '/var/run/linkerd/podinfo';

/** The only trace protocol the proxy speaks since OpenCensus support was dropped (edge-25.10.2). */
export const DEFAULT_TRACE_PROTOCOL = 'opentelemetry';

/**
 * The chart's default `proxy.tracing.labels`: span attributes the proxy fills from its own
 * environment (`$(_pod_…)` are expanded by the kubelet). Used when the values carry no labels.
 */
export const DEFAULT_TRACE_LABELS: Readonly<Record<string, string>> = {
  'k8s.container.name': '$(_pod_containerName)',
  'k8s.pod.ip': '$(_pod_ip)',
  'k8s.pod.uid': '$(_pod_uid)',
};

export const TRACE_ENDPOINT_REQUIRED = 'proxy.tracing.collector.endpoint must be set if proxy tracing is enabled';

export function proxyTracingEnabled(values: Values): boolean {
  return values.proxy.tracing.enabled;
}

const env = (name: string, value: string): EnvVar => ({ name, value });

/** `k=v` lines in key byte order (how Go ranges over a map), each ending in a newline. */
function attributeLines(labels: Readonly<Record<string, string>>): string {
  return Object.keys(labels)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((k) => `${k}=${labels[k]}\n`)
    .join('');
}

/** The trace variables, placed after LINKERD2_PROXY_OUTBOUND_METRICS_HOSTNAME_LABELS; none when tracing is off. */
export function traceEnv(values: Values, ctx: ProxyPodContext): EnvVar[] {
  if (!proxyTracingEnabled(values)) return [];
  const t = values.proxy.tracing;
  const endpoint = t.collector.endpoint;
  // The proxy cannot start tracing without a collector: fail the render, not the pod.
  if (!endpoint) throw new UserError(TRACE_ENDPOINT_REQUIRED);
  const out: EnvVar[] = [
    env('LINKERD2_PROXY_TRACE_ATTRIBUTES_PATH', `${PODINFO_MOUNT_PATH}/labels`),
    env('LINKERD2_PROXY_TRACE_ANNOTATIONS_PATH', `${PODINFO_MOUNT_PATH}/annotations`),
    env('LINKERD2_PROXY_TRACE_PROTOCOL', t.protocol || DEFAULT_TRACE_PROTOCOL),
    env('LINKERD2_PROXY_TRACE_SERVICE_NAME', t.traceServiceName || 'linkerd-proxy'),
    env('LINKERD2_PROXY_TRACE_COLLECTOR_SVC_ADDR', endpoint),
  ];
  // The collector's mesh identity; an unmeshed collector has none and is reached without mTLS.
  const id = t.collector.meshIdentity;
  if (id.serviceAccountName && id.namespace) {
    out.push(
      env(
        'LINKERD2_PROXY_TRACE_COLLECTOR_SVC_NAME',
        serviceAccountIdentity(id.serviceAccountName, id.namespace, ctx.controlPlaneNamespace, trustDomainOf(values)),
      ),
    );
  }
  const labels = t.labels ?? DEFAULT_TRACE_LABELS;
  if (Object.keys(labels).length) out.push(env('LINKERD2_PROXY_TRACE_EXTRA_ATTRIBUTES', attributeLines(labels)));
  return out;
}

/** The proxy's mount of the pod's labels and annotations files. */
export function podinfoMount(): VolumeMount {
  return { mountPath: PODINFO_MOUNT_PATH, name: PODINFO_VOLUME };
}

/** `linkerd-podinfo`: the pod's labels and annotations as files, kept current by the kubelet. */
export function podinfoVolume(): Volume {
  return {
    downwardAPI: {
      items: [
        { fieldRef: { fieldPath: 'metadata.labels' }, path: 'labels' },
        { fieldRef: { fieldPath: 'metadata.annotations' }, path: 'annotations' },
      ],
    },
    name: PODINFO_VOLUME,
  };
}
