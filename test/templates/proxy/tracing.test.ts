import { describe, expect, it } from 'vitest';
import { Pod } from 'kubernetes-models/v1';
import type { Container, EnvVar, PodSpec } from 'kubernetes-types/core/v1.js';
import { UserError } from '../../../src/core/errors.js';
import type { Values } from '../../../src/core/values/index.js';
import { TRACE_ENDPOINT_REQUIRED, sidecarParts, withSidecar } from '../../../templates/proxy/index.js';
import { TRACE_VARS, values } from './support.js';

/** Tracing as the distributed-tracing guide sets it: a meshed collector in `jaeger-system`. */
const traced = (edit: (v: Values) => void = () => {}) =>
  values((v) => {
    v.proxy.tracing.enabled = true;
    v.proxy.tracing.collector.endpoint = 'jaeger-collector.jaeger-system:4317';
    v.proxy.tracing.collector.meshIdentity = { serviceAccountName: 'jaeger', namespace: 'jaeger-system' };
    edit(v);
  });

const app: PodSpec = { containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 8080 }] }] };
const ctx = { controlPlaneNamespace: 'linkerd', podSpec: app };
const proxyOf = (v: Values): Container => sidecarParts(v, ctx).initContainersPrepend[1];
const names = (env: EnvVar[] | undefined) => (env ?? []).map((e) => e.name);
const valueOf = (c: Container, name: string) => c.env?.find((e) => e.name === name)?.value;

describe('proxy tracing off (the default)', () => {
  const parts = sidecarParts(values(), ctx);
  const proxy = parts.initContainersPrepend[1];

  it('sets no trace variable', () => {
    expect(names(proxy.env).filter((n) => n.includes('TRACE'))).toEqual([]);
  });

  it('adds neither the linkerd-podinfo volume nor its mount', () => {
    expect(parts.volumes.map((v) => v.name)).not.toContain('linkerd-podinfo');
    expect(proxy.volumeMounts!.map((m) => m.name)).toEqual(['linkerd-identity-end-entity', 'linkerd-identity-token']);
  });

  it('ignores a configured collector while tracing is disabled', () => {
    const v = values((x) => {
      x.proxy.tracing.collector.endpoint = 'collector.tracing:4317';
    });
    expect(names(proxyOf(v).env).filter((n) => n.includes('TRACE'))).toEqual([]);
  });
});

describe('proxy tracing on (proxy.tracing.enabled)', () => {
  const parts = sidecarParts(traced(), ctx);
  const proxy = parts.initContainersPrepend[1];

  it('writes the trace variables in the spec order, right after the metrics hostname labels and before the HTTP/2 parameters', () => {
    const env = names(proxy.env);
    const at = env.indexOf('LINKERD2_PROXY_OUTBOUND_METRICS_HOSTNAME_LABELS');
    expect(env.slice(at + 1, at + 1 + TRACE_VARS.length)).toEqual(TRACE_VARS);
    expect(env[at + 1 + TRACE_VARS.length]).toBe('LINKERD2_PROXY_INBOUND_SERVER_HTTP2_KEEP_ALIVE_INTERVAL');
  });

  it('points the proxy at the podinfo files, the OpenTelemetry protocol and the default service name', () => {
    expect(valueOf(proxy, 'LINKERD2_PROXY_TRACE_ATTRIBUTES_PATH')).toBe('/var/run/linkerd/podinfo/labels');
    expect(valueOf(proxy, 'LINKERD2_PROXY_TRACE_ANNOTATIONS_PATH')).toBe('/var/run/linkerd/podinfo/annotations');
    expect(valueOf(proxy, 'LINKERD2_PROXY_TRACE_PROTOCOL')).toBe('opentelemetry');
    expect(valueOf(proxy, 'LINKERD2_PROXY_TRACE_SERVICE_NAME')).toBe('linkerd-proxy');
  });

  it('dials the collector endpoint and expects its mesh identity <sa>.<ns>.serviceaccount.identity.<cp-ns>.<td>', () => {
    expect(valueOf(proxy, 'LINKERD2_PROXY_TRACE_COLLECTOR_SVC_ADDR')).toBe('jaeger-collector.jaeger-system:4317');
    expect(valueOf(proxy, 'LINKERD2_PROXY_TRACE_COLLECTOR_SVC_NAME')).toBe('jaeger.jaeger-system.serviceaccount.identity.linkerd.cluster.local');
  });

  it('names the collector identity with the control-plane namespace and the trust domain', () => {
    const v = traced((x) => {
      x.identityTrustDomain = 'example.org';
    });
    const p = sidecarParts(v, { ...ctx, controlPlaneNamespace: 'l5d' }).initContainersPrepend[1];
    expect(valueOf(p, 'LINKERD2_PROXY_TRACE_COLLECTOR_SVC_NAME')).toBe('jaeger.jaeger-system.serviceaccount.identity.l5d.example.org');
  });

  it('adds the pod uid, ip and container name as extra attributes by default, one sorted line each', () => {
    expect(valueOf(proxy, 'LINKERD2_PROXY_TRACE_EXTRA_ATTRIBUTES')).toBe(
      'k8s.container.name=$(_pod_containerName)\nk8s.pod.ip=$(_pod_ip)\nk8s.pod.uid=$(_pod_uid)\n',
    );
  });

  it('uses proxy.tracing.labels, traceServiceName and protocol when set, and no extra attributes for empty labels', () => {
    const custom = proxyOf(
      traced((x) => {
        x.proxy.tracing.labels = { 'service.namespace': 'shop', 'deployment.environment.name': 'prod' };
        x.proxy.tracing.traceServiceName = 'shop-proxy';
        x.proxy.tracing.protocol = 'opentelemetry';
      }),
    );
    expect(valueOf(custom, 'LINKERD2_PROXY_TRACE_EXTRA_ATTRIBUTES')).toBe('deployment.environment.name=prod\nservice.namespace=shop\n');
    expect(valueOf(custom, 'LINKERD2_PROXY_TRACE_SERVICE_NAME')).toBe('shop-proxy');
    const none = proxyOf(
      traced((x) => {
        x.proxy.tracing.labels = {};
      }),
    );
    expect(names(none.env)).not.toContain('LINKERD2_PROXY_TRACE_EXTRA_ATTRIBUTES');
  });

  it('leaves out the collector identity for an unmeshed collector', () => {
    const p = proxyOf(
      traced((x) => {
        x.proxy.tracing.collector.meshIdentity = { serviceAccountName: '', namespace: '' };
      }),
    );
    expect(names(p.env)).not.toContain('LINKERD2_PROXY_TRACE_COLLECTOR_SVC_NAME');
    expect(valueOf(p, 'LINKERD2_PROXY_TRACE_COLLECTOR_SVC_ADDR')).toBe('jaeger-collector.jaeger-system:4317');
  });

  it('refuses to render without a collector endpoint', () => {
    const v = traced((x) => {
      x.proxy.tracing.collector.endpoint = '';
    });
    expect(() => sidecarParts(v, ctx)).toThrow(UserError);
    expect(() => sidecarParts(v, ctx)).toThrow(TRACE_ENDPOINT_REQUIRED);
  });

  it('mounts linkerd-podinfo at /var/run/linkerd/podinfo between the end-entity and token mounts', () => {
    expect(proxy.volumeMounts).toEqual([
      { mountPath: '/var/run/linkerd/identity/end-entity', name: 'linkerd-identity-end-entity' },
      { mountPath: '/var/run/linkerd/podinfo', name: 'linkerd-podinfo' },
      { mountPath: '/var/run/secrets/tokens', name: 'linkerd-identity-token' },
    ]);
  });

  it('adds the linkerd-podinfo downward-API volume (labels and annotations files) after end-entity', () => {
    expect(parts.volumes.map((v) => v.name)).toEqual([
      'linkerd-proxy-init-xtables-lock',
      'linkerd-identity-end-entity',
      'linkerd-podinfo',
      'linkerd-identity-token',
    ]);
    expect(parts.volumes[2]).toEqual({
      downwardAPI: {
        items: [
          { fieldRef: { fieldPath: 'metadata.labels' }, path: 'labels' },
          { fieldRef: { fieldPath: 'metadata.annotations' }, path: 'annotations' },
        ],
      },
      name: 'linkerd-podinfo',
    });
  });

  it('keeps the podinfo volume without token projection, and in the classic and CNI layouts', () => {
    for (const edit of [
      (x: Values) => {
        x.identity.serviceAccountTokenProjection = false;
      },
      (x: Values) => {
        x.proxy.nativeSidecar = false;
      },
      (x: Values) => {
        x.cniEnabled = true;
      },
    ]) {
      const p = sidecarParts(traced(edit), ctx);
      const proxy2 = [...p.initContainersPrepend, ...p.containersPrepend, ...p.containersAppend].find((c) => c.name === 'linkerd-proxy')!;
      expect(p.volumes.map((v) => v.name)).toContain('linkerd-podinfo');
      expect(proxy2.volumeMounts!.map((m) => m.name)).toContain('linkerd-podinfo');
      expect(valueOf(proxy2, 'LINKERD2_PROXY_TRACE_ATTRIBUTES_PATH')).toBe('/var/run/linkerd/podinfo/labels');
    }
  });

  it('produces a pod that validates against the Kubernetes Pod schema', () => {
    const spec = withSidecar(app, parts);
    expect(() => new Pod({ metadata: { name: 'x' }, spec: spec as never }).validate()).not.toThrow();
  });
});
