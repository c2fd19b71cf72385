import yaml from 'js-yaml';
import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { PROXY_CONTAINER_NAME } from '../../../../core/mesh/names.js';

/*
 * prometheus.yml of viz's Prometheus, built as data and serialised once: scrape the kubelets'
 * cAdvisor, the control plane's and viz's admin ports, the multicluster service mirrors and every
 * meshed proxy (relabelled so the metrics API can group series by workload), plus the user's
 * scrape configs, alerting and remote write.
 */

const podSd = (namespaces?: string[]) => [{ role: 'pod', ...(namespaces ? { namespaces: { names: namespaces } } : {}) }];

function cadvisorJob() {
  return {
    job_name: 'kubernetes-nodes-cadvisor',
    scheme: 'https',
    tls_config: { ca_file: '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt', insecure_skip_verify: true },
    bearer_token_file: '/var/run/secrets/kubernetes.io/serviceaccount/token',
    kubernetes_sd_configs: [{ role: 'node' }],
    relabel_configs: [
      { action: 'labelmap', regex: '__meta_kubernetes_node_label_(.+)' },
      { target_label: '__address__', replacement: 'kubernetes.default.svc:443' },
      {
        source_labels: ['__meta_kubernetes_node_name'],
        regex: '(.+)',
        target_label: '__metrics_path__',
        replacement: '/api/v1/nodes/$1/proxy/metrics/cadvisor',
      },
    ],
    metric_relabel_configs: [
      { source_labels: ['__name__'], regex: '(container|machine)_(cpu|memory|network|fs)_(.+)', action: 'keep' },
      // A large metric nothing reads.
      { source_labels: ['__name__'], regex: 'container_memory_failures_total', action: 'drop' },
    ],
  };
}

function proxyJob(values: VizValues) {
  const container = values.proxyContainerName || PROXY_CONTAINER_NAME;
  return {
    job_name: 'linkerd-proxy',
    kubernetes_sd_configs: podSd(),
    relabel_configs: [
      {
        source_labels: [
          '__meta_kubernetes_pod_container_name',
          '__meta_kubernetes_pod_container_port_name',
          '__meta_kubernetes_pod_label_linkerd_io_control_plane_ns',
        ],
        action: 'keep',
        regex: `^${container};linkerd-admin;${values.linkerdNamespace}$`,
      },
      { source_labels: ['__meta_kubernetes_namespace'], action: 'replace', target_label: 'namespace' },
      { source_labels: ['__meta_kubernetes_pod_name'], action: 'replace', target_label: 'pod' },
      // Kubernetes' "job" label would clash with Prometheus's own: it becomes k8s_job.
      { source_labels: ['__meta_kubernetes_pod_label_linkerd_io_proxy_job'], action: 'replace', target_label: 'k8s_job' },
      { action: 'labeldrop', regex: '__meta_kubernetes_pod_label_linkerd_io_proxy_job' },
      // linkerd.io/proxy-deployment=foo becomes deployment=foo, and so on for each workload kind.
      { action: 'labelmap', regex: '__meta_kubernetes_pod_label_linkerd_io_proxy_(.+)' },
      { action: 'labeldrop', regex: '__meta_kubernetes_pod_label_linkerd_io_proxy_(.+)' },
      { action: 'labelmap', regex: '__meta_kubernetes_pod_label_linkerd_io_(.+)' },
      // Every pod label, with a linkerd.io/ prefix removed.
      { action: 'labelmap', regex: '__meta_kubernetes_pod_label_(.+)', replacement: '__tmp_pod_label_$1' },
      { action: 'labelmap', regex: '__tmp_pod_label_linkerd_io_(.+)', replacement: '__tmp_pod_label_$1' },
      { action: 'labeldrop', regex: '__tmp_pod_label_linkerd_io_(.+)' },
      { action: 'labelmap', regex: '__tmp_pod_label_(.+)' },
    ],
  };
}

/** The configuration as data. */
export function prometheusConfig(values: VizValues, ctx: VizContext): Record<string, unknown> {
  const p = values.prometheus;
  const config: Record<string, unknown> = {
    global: structuredClone(p.globalConfig ?? {}),
    rule_files: ['/etc/prometheus/*_rules.yml', '/etc/prometheus/*_rules.yaml'],
    scrape_configs: [
      { job_name: 'prometheus', static_configs: [{ targets: ['localhost:9090'] }] },
      cadvisorJob(),
      {
        job_name: 'linkerd-controller',
        kubernetes_sd_configs: podSd([values.linkerdNamespace, ctx.namespace]),
        relabel_configs: [
          { source_labels: ['__meta_kubernetes_pod_container_port_name'], action: 'keep', regex: 'admin-http' },
          { source_labels: ['__meta_kubernetes_pod_container_name'], action: 'replace', target_label: 'component' },
        ],
      },
      {
        job_name: 'linkerd-service-mirror',
        kubernetes_sd_configs: podSd(),
        relabel_configs: [
          {
            source_labels: ['__meta_kubernetes_pod_label_linkerd_io_control_plane_component', '__meta_kubernetes_pod_container_port_name'],
            action: 'keep',
            regex: 'linkerd-service-mirror;admin-http$',
          },
          { source_labels: ['__meta_kubernetes_pod_container_name'], action: 'replace', target_label: 'component' },
        ],
      },
      proxyJob(values),
      ...structuredClone(p.scrapeConfigs ?? []),
    ],
  };
  if (p.alertmanagers?.length || p.alertRelabelConfigs?.length) {
    config.alerting = { alert_relabel_configs: structuredClone(p.alertRelabelConfigs ?? []), alertmanagers: structuredClone(p.alertmanagers ?? []) };
  }
  if (p.remoteWrite?.length) config.remote_write = structuredClone(p.remoteWrite);
  return config;
}

/** prometheus.yml as the ConfigMap holds it. */
export function prometheusYaml(values: VizValues, ctx: VizContext): string {
  return yaml.dump(prometheusConfig(values, ctx), { noRefs: true, lineWidth: -1, sortKeys: false }).trimEnd();
}
