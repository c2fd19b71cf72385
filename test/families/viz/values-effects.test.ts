import { describe, expect, it } from 'vitest';
import type { VizObject } from '../../../src/families/viz/chart/index.js';
import { ref, render } from './support.js';

type Deployment = VizObject & {
  spec: {
    template: {
      metadata: { annotations: Record<string, string>; labels: Record<string, string> };
      spec: {
        containers: { name: string; args: string[]; image: string; securityContext: { runAsUser: number; runAsGroup: number } }[];
        tolerations?: unknown[];
      };
    };
  };
};

const deployment = (objects: VizObject[], name: string) => objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name) as Deployment;
const container = (objects: VizObject[], name: string) => deployment(objects, name).spec.template.spec.containers.find((c) => c.name !== 'sidecar')!;

describe('linkerd viz install: what the values change', () => {
  it('labels the namespace restricted when the CNI plugin is in use', () => {
    expect(render([{ cniEnabled: true }])[0].metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
    expect(render()[0].metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('privileged');
  });

  it('follows linkerdNamespace: web Role and RoleBinding, args, scrape config', () => {
    const objects = render([{ linkerdNamespace: 'mesh' }]);
    expect(objects.map(ref)).toContain('Role/web -n mesh');
    expect(objects.map(ref)).toContain('RoleBinding/web -n mesh');
    expect(container(objects, 'tap').args).toContain('-api-namespace=mesh');
    expect(container(objects, 'metrics-api').args).toContain('-controller-namespace=mesh');
    expect(container(objects, 'tap-injector').args).toContain('-tap-service-name=tap.linkerd-viz.serviceaccount.identity.mesh.cluster.local');
    const config = objects.find((o) => o.kind === 'ConfigMap') as VizObject & { data: Record<string, string> };
    expect(config.data['prometheus.yml']).toContain('regex: ^linkerd-proxy;linkerd-admin;mesh$');
  });

  it("falls back to defaultUID/defaultGID for a component UID of 0, as Helm's default does", () => {
    const c = container(render([{ dashboard: { UID: 0, GID: 7 } }]), 'web');
    expect([c.securityContext.runAsUser, c.securityContext.runAsGroup]).toEqual([2103, 7]);
  });

  it('passes jaegerUrl, grafana.externalUrl/uidPrefix, enforcedHostRegexp and ignoreHeaders to their components', () => {
    const objects = render([
      {
        jaegerUrl: 'jaeger.linkerd-jaeger.svc.cluster.local:16686',
        grafana: { externalUrl: 'https://g.example', uidPrefix: 'l5d' },
        dashboard: { enforcedHostRegexp: '.*' },
      },
      { tap: { ignoreHeaders: ['authorization', 'cookie'] } },
    ]);
    expect(container(objects, 'web').args).toEqual(
      expect.arrayContaining([
        '-jaeger-addr=jaeger.linkerd-jaeger.svc.cluster.local:16686',
        '-grafana-external-addr=https://g.example',
        '-grafana-prefix=l5d',
        '-enforced-host=.*',
      ]),
    );
    expect(container(objects, 'tap').args).toContain('-ignore-headers=authorization,cookie');
  });

  it('lets the dashboard answer only local and its own Service names by default', () => {
    expect(container(render(), 'web').args).toContain(
      '-enforced-host=^(localhost|127\\.0\\.0\\.1|web\\.linkerd-viz\\.svc\\.cluster\\.local|web\\.linkerd-viz\\.svc|\\[::1\\])(:\\d+)?$',
    );
  });

  it('puts podLabels, podAnnotations and the proxy resources on the pods, service annotations on the Service', () => {
    const objects = render([
      {
        podLabels: { tier: 'obs' },
        podAnnotations: { a: 'b' },
        tap: { service: { annotations: { s: 't' } }, proxy: { resources: { memory: { limit: '1Gi' } } } },
      },
    ]);
    const tap = deployment(objects, 'tap');
    expect(tap.spec.template.metadata.labels).toEqual({ 'linkerd.io/extension': 'viz', component: 'tap', namespace: 'linkerd-viz', tier: 'obs' });
    expect(tap.spec.template.metadata.annotations).toMatchObject({ a: 'b', 'config.linkerd.io/proxy-memory-limit': '1Gi', 'linkerd.io/inject': 'enabled' });
    const service = objects.find((o) => ref(o) === 'Service/tap -n linkerd-viz')!;
    expect(service.metadata.annotations).toMatchObject({ s: 't', 'linkerd.io/inject': 'enabled' });
  });

  it('gives every ServiceAccount the imagePullSecrets, and the pods the tolerations', () => {
    const objects = render([{ imagePullSecrets: [{ name: 'regcred' }], tolerations: [{ key: 'dedicated', operator: 'Exists' }] }]);
    const accounts = objects.filter((o) => o.kind === 'ServiceAccount') as (VizObject & { imagePullSecrets?: unknown })[];
    expect(accounts).toHaveLength(5);
    for (const sa of accounts) expect(sa.imagePullSecrets).toEqual([{ name: 'regcred' }]);
    expect(deployment(objects, 'web').spec.template.spec.tolerations).toEqual([{ key: 'dedicated', operator: 'Exists' }]);
  });

  it("points the metrics API at prometheusUrl even with viz's Prometheus enabled", () => {
    expect(container(render([{ prometheusUrl: 'http://other:9090' }]), 'metrics-api').args).toContain('-prometheus-url=http://other:9090');
  });

  it('runs user sidecars before prometheus and mounts rule ConfigMaps', () => {
    const objects = render([
      {
        prometheus: {
          sidecarContainers: [{ name: 'sidecar', image: 'example/sidecar:1' }],
          ruleConfigMapMounts: [{ name: 'alerting-rules', subPath: 'alerting_rules.yml', configMap: 'linkerd-prometheus-rules' }],
        },
      },
    ]);
    const spec = deployment(objects, 'prometheus').spec.template.spec as unknown as {
      containers: { name: string; volumeMounts?: { name: string }[] }[];
      volumes: { name: string }[];
    };
    expect(spec.containers.map((c) => c.name)).toEqual(['sidecar', 'prometheus']);
    expect(spec.containers[1].volumeMounts?.[0]).toEqual({
      name: 'alerting-rules',
      mountPath: '/etc/prometheus/alerting_rules.yml',
      subPath: 'alerting_rules.yml',
      readOnly: true,
    });
    expect(spec.volumes[0]).toEqual({ name: 'alerting-rules', configMap: { name: 'linkerd-prometheus-rules' } });
  });
});
