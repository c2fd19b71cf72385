import { describe, expect, it } from 'vitest';
import type { RenderedObject } from '../../../templates/control-plane/index.js';
import { controllerNamespaceSelector, type PodMonitor, type RelabelConfig } from '../../../templates/control-plane/podmonitor.js';
import { render, valuesWith } from '../../core/install/support.js';

const ref = (o: { kind: string; metadata: { name?: string } }) => `${o.kind}/${o.metadata.name}`;
const monitorsOf = (objects: RenderedObject[]) => objects.filter((o) => o.kind === 'PodMonitor') as unknown as PodMonitor[];
const monitor = (objects: RenderedObject[], name: string) => monitorsOf(objects).find((m) => m.metadata.name === name)!;
const relabelings = (m: PodMonitor) => m.spec.podMetricsEndpoints[0].relabelings;

/** What Prometheus does with a keep/drop rule: source label values joined by `;`, regex anchored at both ends. */
const matches = (rule: RelabelConfig, values: string[]) => new RegExp(`^(?:${rule.regex})$`).test(values.join(';'));

const ENABLED = ['podMonitor.enabled=true'];

describe('podmonitor: Prometheus Operator PodMonitors (chart podmonitor.yaml)', () => {
  it('renders none by default', async () => {
    expect(monitorsOf(await render())).toEqual([]);
    // The sub-sections are enabled by default; the top-level switch alone decides.
    expect(monitorsOf(await render(valuesWith(['podMonitor.controller.enabled=true'])))).toEqual([]);
  });

  it('renders the controller, multicluster and proxy monitors when enabled, between the heartbeat and proxy-injector RBAC', async () => {
    const refs = (await render(valuesWith(ENABLED))).map(ref);
    const at = refs.indexOf('PodMonitor/linkerd-controller');
    expect(refs.slice(at - 1, at + 4)).toEqual([
      'ServiceAccount/linkerd-heartbeat',
      'PodMonitor/linkerd-controller',
      'PodMonitor/linkerd-multicluster-controller',
      'PodMonitor/linkerd-proxy',
      'ClusterRole/linkerd-linkerd-proxy-injector',
    ]);
    // Without the heartbeat, they follow the destination RBAC.
    const noHeartbeat = (await render(valuesWith([...ENABLED, 'disableHeartBeat=true']))).map(ref);
    expect(noHeartbeat[noHeartbeat.indexOf('PodMonitor/linkerd-controller') - 1]).toBe('RoleBinding/linkerd-destination-remote-discovery');
  });

  it('makes namespaced monitoring.coreos.com/v1 objects with the control-plane labels, commonLabels, podMonitor.labels and created-by', async () => {
    const objects = await render(valuesWith([...ENABLED, 'commonLabels.team=mesh', 'podMonitor.labels.release=kube-prometheus-stack']));
    const monitors = monitorsOf(objects);
    expect(monitors).toHaveLength(3);
    for (const m of monitors) {
      expect(m.apiVersion).toBe('monitoring.coreos.com/v1');
      expect(m.metadata.namespace).toBe('linkerd');
      expect(m.metadata.labels).toEqual({ 'linkerd.io/control-plane-ns': 'linkerd', team: 'mesh', release: 'kube-prometheus-stack' });
      expect(m.metadata.annotations).toEqual({ 'linkerd.io/created-by': 'linkerd/cli edge-26.9.1' });
      expect(m.spec.selector).toEqual({ matchLabels: {} });
    }
    expect(monitors.map((m) => m.spec.namespaceSelector)).toEqual([{ matchNames: ['linkerd', 'linkerd-viz'] }, { any: true }, { any: true }]);
  });

  it('scrapes with podMonitor.scrapeInterval and scrapeTimeout, one endpoint per monitor', async () => {
    const objects = await render(valuesWith([...ENABLED, 'podMonitor.scrapeInterval=30s', 'podMonitor.scrapeTimeout=25s']));
    for (const m of monitorsOf(objects)) {
      expect(m.spec.podMetricsEndpoints).toHaveLength(1);
      expect(m.spec.podMetricsEndpoints[0]).toMatchObject({ interval: '30s', scrapeTimeout: '25s' });
    }
    const defaults = monitorsOf(await render(valuesWith(ENABLED)));
    expect(defaults.map((m) => [m.spec.podMetricsEndpoints[0].interval, m.spec.podMetricsEndpoints[0].scrapeTimeout])).toEqual(Array(3).fill(['10s', '10s']));
  });

  it("honours the targets' timestamps by default; podMonitor.<section>.honorTimestamps=false turns it off for that monitor only", async () => {
    const endpoint = (objects: RenderedObject[], name: string) => monitor(objects, name).spec.podMetricsEndpoints[0];
    const defaults = await render(valuesWith(ENABLED));
    for (const name of ['linkerd-controller', 'linkerd-multicluster-controller', 'linkerd-proxy']) expect(endpoint(defaults, name).honorTimestamps).toBe(true);
    const off = await render(valuesWith([...ENABLED, 'podMonitor.proxy.honorTimestamps=false']));
    expect(endpoint(off, 'linkerd-proxy').honorTimestamps).toBe(false);
    expect(endpoint(off, 'linkerd-controller').honorTimestamps).toBe(true);
    expect(endpoint(off, 'linkerd-multicluster-controller').honorTimestamps).toBe(true);
  });

  for (const [section, name] of [
    ['controller', 'linkerd-controller'],
    ['serviceMirror', 'linkerd-multicluster-controller'],
    ['proxy', 'linkerd-proxy'],
  ] as const) {
    it(`leaves out ${name} with podMonitor.${section}.enabled=false, and only it`, async () => {
      const names = monitorsOf(await render(valuesWith([...ENABLED, `podMonitor.${section}.enabled=false`]))).map((m) => m.metadata.name);
      expect(names).toHaveLength(2);
      expect(names).not.toContain(name);
    });
  }

  it('renders nothing when every sub-section is disabled', async () => {
    const off = ['controller', 'serviceMirror', 'proxy'].map((s) => `podMonitor.${s}.enabled=false`);
    expect(monitorsOf(await render(valuesWith([...ENABLED, ...off])))).toEqual([]);
  });

  it('keeps every control-plane admin port of the rendered Deployments, and drops the proxies’ linkerd-admin', async () => {
    const objects = await render(valuesWith(ENABLED));
    const ports: Array<[container: string, port: string]> = [];
    for (const d of objects.filter((o) => o.kind === 'Deployment')) {
      const pod = (
        d.spec as {
          template: {
            spec: {
              containers: Array<{ name: string; ports?: Array<{ name?: string }> }>;
              initContainers?: Array<{ name: string; ports?: Array<{ name?: string }> }>;
            };
          };
        }
      ).template.spec;
      for (const c of [...(pod.initContainers ?? []), ...pod.containers]) for (const p of c.ports ?? []) ports.push([c.name, p.name ?? '']);
    }
    const [keepAdmin, dropProxy, component] = relabelings(monitor(objects, 'linkerd-controller'));
    const scraped = ports.filter(([, port]) => matches(keepAdmin, [port]) && !matches(dropProxy, [port])).map(([, port]) => port);
    expect(scraped.sort()).toEqual(['dest-admin', 'ident-admin', 'injector-admin', 'policy-admin', 'spval-admin']);
    expect(ports.some(([, port]) => port === 'linkerd-admin')).toBe(true);
    expect(component).toEqual({ sourceLabels: ['__meta_kubernetes_pod_container_name'], action: 'replace', targetLabel: 'component' });
  });

  it('keeps only the multicluster controllers’ admin ports in linkerd-multicluster-controller', async () => {
    const [keep, drop] = relabelings(monitor(await render(valuesWith(ENABLED)), 'linkerd-multicluster-controller'));
    expect(keep.sourceLabels).toEqual(['__meta_kubernetes_pod_label_linkerd_io_control_plane_component', '__meta_kubernetes_pod_container_port_name']);
    expect(matches(keep, ['linkerd-service-mirror', 'mirror-admin'])).toBe(true);
    expect(matches(keep, ['controller', 'admin-admin'])).toBe(true);
    expect(matches(keep, ['destination', 'dest-admin'])).toBe(false);
    expect(matches(drop, ['linkerd-admin'])).toBe(true);
  });

  it('keeps only this control plane’s proxies in linkerd-proxy and maps their labels', async () => {
    const objects = await render(valuesWith(ENABLED), { namespace: 'mesh' });
    const rules = relabelings(monitor(objects, 'linkerd-proxy'));
    const keep = rules[0];
    expect(keep.sourceLabels).toEqual([
      '__meta_kubernetes_pod_container_name',
      '__meta_kubernetes_pod_container_port_name',
      '__meta_kubernetes_pod_label_linkerd_io_control_plane_ns',
    ]);
    expect(matches(keep, ['linkerd-proxy', 'linkerd-admin', 'mesh'])).toBe(true);
    expect(matches(keep, ['linkerd-proxy', 'linkerd-admin', 'linkerd'])).toBe(false);
    expect(matches(keep, ['app', 'http', 'mesh'])).toBe(false);
    expect(rules.slice(1, 4).map((r) => [r.sourceLabels, r.targetLabel])).toEqual([
      [['__meta_kubernetes_namespace'], 'namespace'],
      [['__meta_kubernetes_pod_name'], 'pod'],
      [['__meta_kubernetes_pod_label_linkerd_io_proxy_job'], 'k8s_job'],
    ]);
    expect(rules.slice(4).map((r) => r.action)).toEqual(['labeldrop', 'labelmap', 'labeldrop', 'labelmap', 'labelmap', 'labelmap', 'labeldrop', 'labelmap']);
    expect(rules.at(-1)).toEqual({ action: 'labelmap', regex: '__tmp_pod_label_(.+)' });
  });
});

describe('podMonitor.controller.namespaceSelector (YAML text the chart runs through tpl)', () => {
  it('fills in the control-plane namespace', async () => {
    const objects = await render(valuesWith(ENABLED), { namespace: 'mesh' });
    expect(monitor(objects, 'linkerd-controller').spec.namespaceSelector).toEqual({ matchNames: ['mesh', 'linkerd-viz'] });
    expect(controllerNamespaceSelector('matchNames: [ "{{.Release.Namespace}}" ]', 'l5d')).toEqual({ matchNames: ['l5d'] });
  });

  it('takes any selector map the user writes', async () => {
    const objects = await render(valuesWith([...ENABLED, 'podMonitor.controller.namespaceSelector=any: true']));
    expect(monitor(objects, 'linkerd-controller').spec.namespaceSelector).toEqual({ any: true });
  });

  it('refuses other template actions, YAML errors and non-maps in one line naming the value', () => {
    expect(() => controllerNamespaceSelector('matchNames: [ {{ .Values.ns }} ]', 'linkerd')).toThrow(
      /^podMonitor\.controller\.namespaceSelector: only \{\{ \.Release\.Namespace \}\} can be templated here \(found \{\{ \.Values\.ns \}\}\)$/,
    );
    expect(() => controllerNamespaceSelector('matchNames: [a', 'linkerd')).toThrow(/^podMonitor\.controller\.namespaceSelector: not valid YAML: /);
    expect(() => controllerNamespaceSelector('- linkerd', 'linkerd')).toThrow(/^podMonitor\.controller\.namespaceSelector: expected a namespace selector map/);
    expect(() => controllerNamespaceSelector('', 'linkerd')).toThrow(/^podMonitor\.controller\.namespaceSelector: expected a namespace selector map/);
  });
});
