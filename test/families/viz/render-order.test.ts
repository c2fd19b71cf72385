import { describe, expect, it } from 'vitest';
import { EXTERNAL_SECRETS, ref, render } from './support.js';

/** The 52 objects of a default `linkerd viz install`, in the real chart's order. */
const DEFAULT_ORDER = [
  'Namespace/linkerd-viz',
  'ClusterRole/linkerd-linkerd-viz-metrics-api',
  'ClusterRoleBinding/linkerd-linkerd-viz-metrics-api',
  'ServiceAccount/metrics-api -n linkerd-viz',
  'ClusterRole/linkerd-linkerd-viz-prometheus',
  'ClusterRoleBinding/linkerd-linkerd-viz-prometheus',
  'ServiceAccount/prometheus -n linkerd-viz',
  'ClusterRole/linkerd-linkerd-viz-tap',
  'ClusterRole/linkerd-linkerd-viz-tap-admin',
  'ClusterRoleBinding/linkerd-linkerd-viz-tap',
  'ClusterRoleBinding/linkerd-linkerd-viz-tap-auth-delegator',
  'ServiceAccount/tap -n linkerd-viz',
  'RoleBinding/linkerd-linkerd-viz-tap-auth-reader -n kube-system',
  'Secret/tap-k8s-tls -n linkerd-viz',
  'APIService/v1alpha1.tap.linkerd.io',
  'Role/web -n linkerd',
  'RoleBinding/web -n linkerd',
  'ClusterRole/linkerd-linkerd-viz-web-check',
  'ClusterRoleBinding/linkerd-linkerd-viz-web-check',
  'ClusterRoleBinding/linkerd-linkerd-viz-web-admin',
  'ClusterRole/linkerd-linkerd-viz-web-api',
  'ClusterRoleBinding/linkerd-linkerd-viz-web-api',
  'ServiceAccount/web -n linkerd-viz',
  'Service/metrics-api -n linkerd-viz',
  'Deployment/metrics-api -n linkerd-viz',
  'Server/metrics-api -n linkerd-viz',
  'AuthorizationPolicy/metrics-api -n linkerd-viz',
  'MeshTLSAuthentication/metrics-api-web -n linkerd-viz',
  'NetworkAuthentication/kubelet -n linkerd-viz',
  'ConfigMap/prometheus-config -n linkerd-viz',
  'Service/prometheus -n linkerd-viz',
  'Deployment/prometheus -n linkerd-viz',
  'Server/prometheus-admin -n linkerd-viz',
  'AuthorizationPolicy/prometheus-admin -n linkerd-viz',
  'Service/tap -n linkerd-viz',
  'Deployment/tap -n linkerd-viz',
  'Server/tap-api -n linkerd-viz',
  'AuthorizationPolicy/tap -n linkerd-viz',
  'ClusterRole/linkerd-tap-injector',
  'ClusterRoleBinding/linkerd-tap-injector',
  'ServiceAccount/tap-injector -n linkerd-viz',
  'Secret/tap-injector-k8s-tls -n linkerd-viz',
  'MutatingWebhookConfiguration/linkerd-tap-injector-webhook-config',
  'Service/tap-injector -n linkerd-viz',
  'Deployment/tap-injector -n linkerd-viz',
  'Server/tap-injector-webhook -n linkerd-viz',
  'AuthorizationPolicy/tap-injector -n linkerd-viz',
  'NetworkAuthentication/kube-api-server -n linkerd-viz',
  'Service/web -n linkerd-viz',
  'Deployment/web -n linkerd-viz',
  'ServiceProfile/metrics-api.linkerd-viz.svc.cluster.local -n linkerd-viz',
  'ServiceProfile/prometheus.linkerd-viz.svc.cluster.local -n linkerd-viz',
];

const PROMETHEUS_OBJECTS = [
  'ClusterRole/linkerd-linkerd-viz-prometheus',
  'ClusterRoleBinding/linkerd-linkerd-viz-prometheus',
  'ServiceAccount/prometheus -n linkerd-viz',
  'ConfigMap/prometheus-config -n linkerd-viz',
  'Service/prometheus -n linkerd-viz',
  'Deployment/prometheus -n linkerd-viz',
  'ServiceProfile/prometheus.linkerd-viz.svc.cluster.local -n linkerd-viz',
];

const SECRETS = ['Secret/tap-k8s-tls -n linkerd-viz', 'Secret/tap-injector-k8s-tls -n linkerd-viz'];

describe('linkerd viz install: objects and order', () => {
  it('renders the 52 objects of a default install in the real order', () => {
    expect(render().map(ref)).toEqual(DEFAULT_ORDER);
  });

  it('drops the two serving Secrets with both externalSecrets (50, as the upstream golden)', () => {
    expect(render([EXTERNAL_SECRETS]).map(ref)).toEqual(DEFAULT_ORDER.filter((r) => !SECRETS.includes(r)));
  });

  it('drops Prometheus, its RBAC and its ServiceProfile with prometheus.enabled=false (43 with the golden pins), keeping its policy', () => {
    const refs = render([EXTERNAL_SECRETS, { prometheus: { enabled: false }, prometheusUrl: 'external-prom.com' }]).map(ref);
    expect(refs).toHaveLength(43);
    expect(refs).toEqual(DEFAULT_ORDER.filter((r) => !SECRETS.includes(r) && !PROMETHEUS_OBJECTS.includes(r)));
    expect(refs).toContain('Server/prometheus-admin -n linkerd-viz');
  });

  it('adds one PodDisruptionBudget with --ha, right after the tap Deployment (tap is the only component with 3 replicas)', () => {
    const refs = render([], true).map(ref);
    expect(refs).toHaveLength(53);
    expect(refs.filter((r) => r.startsWith('PodDisruptionBudget/'))).toEqual(['PodDisruptionBudget/tap -n linkerd-viz']);
    expect(refs.indexOf('PodDisruptionBudget/tap -n linkerd-viz')).toBe(refs.indexOf('Deployment/tap -n linkerd-viz') + 1);
  });

  it('adds the psp Role and viz-psp RoleBinding after the web RBAC with enablePSP', () => {
    const refs = render([{ enablePSP: true }]).map(ref);
    const at = refs.indexOf('ServiceAccount/web -n linkerd-viz');
    expect(refs.slice(at + 1, at + 3)).toEqual(['Role/psp -n linkerd-viz', 'RoleBinding/viz-psp -n linkerd-viz']);
  });

  it('renders only the linkerd-config Role rules and the ServiceAccount for web with dashboard.restrictPrivileges', () => {
    const objects = render([{ dashboard: { restrictPrivileges: true } }]);
    const refs = objects.map(ref);
    expect(refs.filter((r) => r.includes('web-'))).toEqual([]);
    const role = objects.find((o) => ref(o) === 'Role/web -n linkerd') as unknown as { rules: unknown[] };
    expect(role.rules).toEqual([{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: ['linkerd-config'] }]);
  });

  it('labels every object linkerd.io/extension=viz, plus commonLabels', () => {
    const objects = render([{ commonLabels: { team: 'obs' } }]);
    for (const o of objects) expect([ref(o), o.metadata.labels]).toEqual([ref(o), expect.objectContaining({ 'linkerd.io/extension': 'viz', team: 'obs' })]);
  });
});
