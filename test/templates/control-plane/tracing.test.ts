import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type { Container, PodSpec } from 'kubernetes-types/core/v1.js';
import { describe, expect, it } from 'vitest';
import { CONTROLLER_TRACE_ENDPOINT_REQUIRED } from '../../../templates/control-plane/trace.js';
import { TRACE_ENDPOINT_REQUIRED } from '../../../templates/proxy/index.js';
import { find, render, valuesWith } from '../../core/install/support.js';
import { TRACE_VARS } from '../proxy/support.js';

const PROXIED = ['linkerd-identity', 'linkerd-destination', 'linkerd-proxy-injector'] as const;
const CONTROLLERS = { 'linkerd-identity': 'identity', 'linkerd-destination': 'destination' } as const;

const PROXY_TRACING = [
  'proxy.tracing.enabled=true',
  'proxy.tracing.collector.endpoint=collector.tracing.svc.cluster.local:4317',
  'proxy.tracing.collector.meshIdentity.serviceAccountName=collector',
  'proxy.tracing.collector.meshIdentity.namespace=tracing',
];

const podOf = (objs: Awaited<ReturnType<typeof render>>, name: string): PodSpec => find<Deployment>(objs, 'Deployment', name).spec!.template.spec!;
const proxyOf = (pod: PodSpec): Container => [...(pod.initContainers ?? []), ...pod.containers].find((c) => c.name === 'linkerd-proxy')!;
const envValue = (c: Container, name: string) => c.env?.find((e) => e.name === name)?.value;
const traceVars = (c: Container) => (c.env ?? []).map((e) => e.name).filter((n) => n.startsWith('LINKERD2_PROXY_TRACE_'));
const controllerArgs = (pod: PodSpec, container: string) => pod.containers.find((c) => c.name === container)!.args!;

describe('install with proxy.tracing (control-plane proxies are traced like injected ones)', () => {
  it('gives every control-plane proxy the trace variables, the podinfo mount and the podinfo volume', async () => {
    const objs = await render(valuesWith(PROXY_TRACING));
    for (const name of PROXIED) {
      const pod = podOf(objs, name);
      const proxy = proxyOf(pod);
      expect(traceVars(proxy), name).toEqual(TRACE_VARS);
      expect(envValue(proxy, 'LINKERD2_PROXY_TRACE_COLLECTOR_SVC_ADDR')).toBe('collector.tracing.svc.cluster.local:4317');
      expect(envValue(proxy, 'LINKERD2_PROXY_TRACE_COLLECTOR_SVC_NAME')).toBe('collector.tracing.serviceaccount.identity.linkerd.cluster.local');
      expect(envValue(proxy, 'LINKERD2_PROXY_TRACE_ATTRIBUTES_PATH')).toBe('/var/run/linkerd/podinfo/labels');
      expect(proxy.volumeMounts).toContainEqual({ mountPath: '/var/run/linkerd/podinfo', name: 'linkerd-podinfo' });
      expect(pod.volumes!.filter((v) => v.name === 'linkerd-podinfo')).toEqual([
        {
          downwardAPI: {
            items: [
              { fieldRef: { fieldPath: 'metadata.labels' }, path: 'labels' },
              { fieldRef: { fieldPath: 'metadata.annotations' }, path: 'annotations' },
            ],
          },
          name: 'linkerd-podinfo',
        },
      ]);
      // The controllers never see the pod metadata files: only the proxy mounts them.
      for (const c of pod.containers.filter((x) => x.name !== 'linkerd-proxy')) {
        expect(c.volumeMounts?.map((m) => m.name)).not.toContain('linkerd-podinfo');
      }
    }
  });

  it('does not make the controllers export spans: no -trace-collector argument', async () => {
    const objs = await render(valuesWith(PROXY_TRACING));
    for (const [name, container] of Object.entries(CONTROLLERS)) {
      expect(controllerArgs(podOf(objs, name), container).filter((a) => a.startsWith('-trace-collector'))).toEqual([]);
    }
  });

  it('leaves the heartbeat job alone (it has no proxy)', async () => {
    const objs = await render(valuesWith(PROXY_TRACING));
    const cron = objs.find((o) => o.kind === 'CronJob')!;
    expect(JSON.stringify(cron)).not.toContain('podinfo');
  });

  it('fails the render when tracing is on without a collector endpoint', async () => {
    await expect(render(valuesWith(['proxy.tracing.enabled=true']))).rejects.toThrow(TRACE_ENDPOINT_REQUIRED);
  });

  it('adds nothing by default', async () => {
    const objs = await render(valuesWith());
    for (const name of PROXIED) {
      const pod = podOf(objs, name);
      expect(traceVars(proxyOf(pod))).toEqual([]);
      expect(pod.volumes!.map((v) => v.name)).not.toContain('linkerd-podinfo');
    }
    for (const [name, container] of Object.entries(CONTROLLERS)) {
      expect(controllerArgs(podOf(objs, name), container).some((a) => a.startsWith('-trace-collector'))).toBe(false);
    }
  });
});

describe('install with control-plane tracing', () => {
  it('controller.tracing.enabled: the identity and destination controllers export to controller.tracing.collector.endpoint', async () => {
    const objs = await render(valuesWith(['controller.tracing.enabled=true', 'controller.tracing.collector.endpoint=otel.monitoring:4317']));
    for (const [name, container] of Object.entries(CONTROLLERS)) {
      expect(controllerArgs(podOf(objs, name), container).filter((a) => a.startsWith('-trace-collector'))).toEqual(['-trace-collector=otel.monitoring:4317']);
    }
    // The proxies are not traced by the controller setting.
    for (const name of PROXIED) expect(traceVars(proxyOf(podOf(objs, name)))).toEqual([]);
  });

  it("controller.tracing.enabled falls back to the proxies' collector endpoint", async () => {
    const objs = await render(valuesWith([...PROXY_TRACING, 'controller.tracing.enabled=true']));
    expect(controllerArgs(podOf(objs, 'linkerd-destination'), 'destination')).toContain('-trace-collector=collector.tracing.svc.cluster.local:4317');
  });

  it('controller.tracing.enabled with no endpoint anywhere fails the render', async () => {
    await expect(render(valuesWith(['controller.tracing.enabled=true']))).rejects.toThrow(CONTROLLER_TRACE_ENDPOINT_REQUIRED);
  });

  it('the linkerd-jaeger era controlPlaneTracing values are gone: --set of either is refused, naming the key and its replacement', () => {
    expect(() => valuesWith(['controlPlaneTracing=true'])).toThrow(
      '--set: controlPlaneTracing: unknown key (removed in this release; use controller.tracing.enabled)',
    );
    expect(() => valuesWith(['controlPlaneTracingNamespace=observability'])).toThrow(
      '--set: controlPlaneTracingNamespace: unknown key (removed in this release; use controller.tracing.collector.endpoint)',
    );
  });

  it('without controller.tracing the controllers get no -trace-collector argument', async () => {
    const objs = await render(valuesWith([]));
    for (const [name, container] of Object.entries(CONTROLLERS)) {
      expect(controllerArgs(podOf(objs, name), container).filter((a) => a.startsWith('-trace-collector'))).toEqual([]);
    }
  });
});
