import yaml from 'js-yaml';
import type { LabelSelector, ObjectMeta } from 'kubernetes-types/meta/v1.js';
import { UserError } from '../../src/core/errors.js';
import type { Values } from '../../src/core/values/index.js';
import type { ControlPlaneContext } from './context.js';
import { componentLabels, createdByAnnotation, namespacedMeta } from './metadata.js';
import { ADMIN_PORT_NAME } from '../../src/core/mesh/names.js';

/*
 * Prometheus Operator PodMonitors (`monitoring.coreos.com/v1`), for a Prometheus run by the
 * operator instead of linkerd-viz's. Only with `podMonitor.enabled`; then one per enabled
 * sub-section: the control-plane containers' admin ports, the multicluster controllers' admin
 * ports, and every meshed proxy of this control plane. The relabelings give the same series
 * labels as linkerd-viz's scrape jobs of the same names.
 */

/** A Prometheus relabel rule, in the operator's field names. */
export interface RelabelConfig {
  sourceLabels?: string[];
  action: 'keep' | 'drop' | 'replace' | 'labelmap' | 'labeldrop';
  regex?: string;
  targetLabel?: string;
  replacement?: string;
}

export interface PodMetricsEndpoint {
  interval: string;
  scrapeTimeout: string;
  /** Whether Prometheus keeps the timestamps the target exposes (false: the scrape time). */
  honorTimestamps: boolean;
  relabelings: RelabelConfig[];
}

/** `any: true` (every namespace), `matchNames`, or whatever the user's selector says. */
export type NamespaceSelector = { any: true } | { matchNames: string[] } | Record<string, unknown>;

export interface PodMonitor {
  apiVersion: 'monitoring.coreos.com/v1';
  kind: 'PodMonitor';
  metadata: ObjectMeta;
  spec: {
    namespaceSelector: NamespaceSelector;
    selector: LabelSelector;
    podMetricsEndpoints: PodMetricsEndpoint[];
  };
}

// Prometheus' Kubernetes service-discovery labels the rules read.
const PORT_NAME = '__meta_kubernetes_pod_container_port_name';
const CONTAINER_NAME = '__meta_kubernetes_pod_container_name';
const COMPONENT_LABEL = '__meta_kubernetes_pod_label_linkerd_io_control_plane_component';
const CONTROL_PLANE_NS_LABEL = '__meta_kubernetes_pod_label_linkerd_io_control_plane_ns';
const PROXY_JOB_LABEL = '__meta_kubernetes_pod_label_linkerd_io_proxy_job';

const keep = (sourceLabels: string[], regex: string): RelabelConfig => ({ sourceLabels, action: 'keep', regex });
const drop = (sourceLabels: string[], regex: string): RelabelConfig => ({ sourceLabels, action: 'drop', regex });
const copyTo = (source: string, targetLabel: string): RelabelConfig => ({ sourceLabels: [source], action: 'replace', targetLabel });
const labeldrop = (regex: string): RelabelConfig => ({ action: 'labeldrop', regex });
const labelmap = (regex: string, replacement?: string): RelabelConfig =>
  replacement === undefined ? { action: 'labelmap', regex } : { action: 'labelmap', regex, replacement };

/**
 * Control-plane containers name their admin ports `<x>-admin`; the proxies' `linkerd-admin` is
 * dropped here because the proxy monitor scrapes it. The container becomes the `component` label.
 * (Fresh objects each time: a shared one would be printed as a YAML alias.)
 */
function adminPortsButProxies(): RelabelConfig[] {
  return [drop([PORT_NAME], ADMIN_PORT_NAME), copyTo(CONTAINER_NAME, 'component')];
}

function controllerRelabelings(): RelabelConfig[] {
  return [keep([PORT_NAME], '.*-admin$'), ...adminPortsButProxies()];
}

/** Pods of the multicluster extension: service mirrors and the link controllers. */
function multiclusterRelabelings(): RelabelConfig[] {
  return [keep([COMPONENT_LABEL, PORT_NAME], '(linkerd-service-mirror|controller);.*-admin$'), ...adminPortsButProxies()];
}

/**
 * Proxies of this control plane only; series get `namespace`, `pod`, `k8s_job`, the proxy's
 * `linkerd.io/proxy-<kind>` labels as `<kind>`, other `linkerd.io/*` labels without the prefix,
 * and the remaining pod labels as they are (`linkerd.io/` ones not repeated).
 */
function proxyRelabelings(namespace: string): RelabelConfig[] {
  return [
    keep([CONTAINER_NAME, PORT_NAME, CONTROL_PLANE_NS_LABEL], `^linkerd-proxy;linkerd-admin;${namespace}$`),
    copyTo('__meta_kubernetes_namespace', 'namespace'),
    copyTo('__meta_kubernetes_pod_name', 'pod'),
    copyTo(PROXY_JOB_LABEL, 'k8s_job'),
    labeldrop(PROXY_JOB_LABEL),
    labelmap('__meta_kubernetes_pod_label_linkerd_io_proxy_(.+)'),
    labeldrop('__meta_kubernetes_pod_label_linkerd_io_proxy_(.+)'),
    labelmap('__meta_kubernetes_pod_label_linkerd_io_(.+)'),
    labelmap('__meta_kubernetes_pod_label_(.+)', '__tmp_pod_label_$1'),
    labelmap('__tmp_pod_label_linkerd_io_(.+)', '__tmp_pod_label_$1'),
    labeldrop('__tmp_pod_label_linkerd_io_(.+)'),
    labelmap('__tmp_pod_label_(.+)'),
  ];
}

const SELECTOR_VALUE = 'podMonitor.controller.namespaceSelector';
const RELEASE_NAMESPACE = /\{\{\s*\.Release\.Namespace\s*\}\}/g;

/**
 * `podMonitor.controller.namespaceSelector` is YAML text that the chart runs through Helm's `tpl`.
 * The one thing it can refer to here is `{{ .Release.Namespace }}` (the default does); anything
 * else that is templated is refused rather than rendered wrong.
 */
export function controllerNamespaceSelector(text: string, namespace: string): NamespaceSelector {
  const rendered = text.replace(RELEASE_NAMESPACE, namespace);
  const action = /\{\{.*?\}\}/s.exec(rendered);
  if (action) throw new UserError(`${SELECTOR_VALUE}: only {{ .Release.Namespace }} can be templated here (found ${action[0]})`);
  let selector: unknown;
  try {
    selector = yaml.load(rendered);
  } catch (e) {
    if (e instanceof yaml.YAMLException) throw new UserError(`${SELECTOR_VALUE}: not valid YAML: ${e.reason}`);
    throw e;
  }
  if (selector === null || typeof selector !== 'object' || Array.isArray(selector)) {
    throw new UserError(`${SELECTOR_VALUE}: expected a namespace selector map (such as "any: true" or "matchNames: [...]")`);
  }
  return selector as NamespaceSelector;
}

function podMonitor(
  name: string,
  namespaceSelector: NamespaceSelector,
  relabelings: RelabelConfig[],
  honorTimestamps: boolean,
  values: Values,
  ctx: ControlPlaneContext,
): PodMonitor {
  const { podMonitor: pm } = values;
  const labels = { ...componentLabels(values, ctx), ...pm.labels };
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PodMonitor',
    metadata: namespacedMeta(name, ctx, labels, createdByAnnotation(values, ctx)),
    spec: {
      namespaceSelector,
      selector: { matchLabels: {} },
      podMetricsEndpoints: [{ interval: pm.scrapeInterval, scrapeTimeout: pm.scrapeTimeout, honorTimestamps, relabelings }],
    },
  };
}

/** The chart's `podmonitor.yaml`: nothing unless `podMonitor.enabled`, then one PodMonitor per enabled sub-section. */
export function podMonitors(values: Values, ctx: ControlPlaneContext): PodMonitor[] {
  const pm = values.podMonitor;
  if (!pm.enabled) return [];
  const out: PodMonitor[] = [];
  if (pm.controller.enabled) {
    const selector = controllerNamespaceSelector(pm.controller.namespaceSelector, ctx.namespace);
    out.push(podMonitor('linkerd-controller', selector, controllerRelabelings(), pm.controller.honorTimestamps, values, ctx));
  }
  if (pm.serviceMirror.enabled) {
    out.push(podMonitor('linkerd-multicluster-controller', { any: true }, multiclusterRelabelings(), pm.serviceMirror.honorTimestamps, values, ctx));
  }
  if (pm.proxy.enabled) {
    out.push(podMonitor('linkerd-proxy', { any: true }, proxyRelabelings(ctx.namespace), pm.proxy.honorTimestamps, values, ctx));
  }
  return out;
}
