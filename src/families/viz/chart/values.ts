import * as z from 'zod';
import { UserError } from '../../../core/errors.js';
import { type DeepPartial, formatIssues } from '../../../core/values/index.js';
import { bool, int, str, stringMap, toleration, uint } from '../../../core/values/schemaParts.js';
import { deepClone } from '../../../core/values/tree.js';
import { LINKERD_VERSION, cliCreatedBy } from '../../../core/version.js';

/*
 * The values of the linkerd-viz chart as one strict zod schema, following the control-plane
 * schema's conventions: key names and nesting as in the chart's values.yaml (so users' files and
 * `--set` paths keep working), every object level strict (a typo is an error), keys of values.yaml
 * required (defaults() supplies them), keys only read by the templates optional.
 *
 * values.yaml leaves many keys empty (`limit:`, `UID:`, `proxy:`), which Helm reads as null; those
 * are nullable here and a null means "not set" to the templates, as `{{ with }}` / `default` do.
 */

const optStr = str.nullable();
/** A map the chart defaults; `--set nodeSelector=null` deletes it, which reads as empty. */
const defaultedMap = stringMap.default({});
/** A free-form Kubernetes or Prometheus object passed through to the output untouched. */
const object = z.record(z.string(), z.unknown());
/** A free-form list (scrape configs, sidecar containers): empty (null) by default. */
const list = z.array(z.unknown()).nullable();

const constraint = z.strictObject({ limit: optStr.optional(), request: optStr.optional() });
const resources = z.strictObject({
  cpu: constraint.nullable().optional(),
  memory: constraint.nullable().optional(),
  'ephemeral-storage': constraint.nullable().optional(),
});
/** `<component>.proxy`: empty by default; `resources` there become the injected proxy's resources. */
const proxy = z.strictObject({ resources: resources.nullable().optional() }).nullable();

const image = z.strictObject({ registry: str, name: str, tag: str, pullPolicy: str });
const service = z.strictObject({ annotations: defaultedMap, labels: stringMap.nullable().optional() });

const tolerations = z.array(toleration).nullable();

const labelSelectorRequirement = z.strictObject({
  key: str,
  operator: z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist']),
  values: z.array(str).optional(),
});
const labelSelector = z
  .strictObject({
    matchLabels: stringMap.optional(),
    matchExpressions: z.array(labelSelectorRequirement).optional(),
  })
  .nullable();

/** What each viz component (metrics-api, tap, tap-injector, dashboard) shares. */
const component = {
  replicas: uint,
  logLevel: str,
  logFormat: str,
  image,
  resources: resources.nullable(),
  proxy,
  UID: int.nullable(),
  GID: int.nullable().optional(),
  service,
};

/** Serving-certificate values of tap (the APIService) and tap-injector (the webhook). */
const tls = {
  externalSecret: bool,
  crtPEM: str,
  keyPEM: str,
  caBundle: str,
  injectCaFrom: str,
  injectCaFromSecret: str,
};

const metricsAPI = z.strictObject({
  ...component,
  nodeSelector: defaultedMap,
  tolerations,
});

const tap = z.strictObject({
  ...component,
  ...tls,
  ignoreHeaders: z.array(str),
});

const tapInjector = z.strictObject({
  ...component,
  ...tls,
  namespaceSelector: labelSelector,
  objectSelector: labelSelector,
  failurePolicy: z.enum(['Ignore', 'Fail']),
});

const dashboard = z.strictObject({
  ...component,
  restrictPrivileges: bool,
  enforcedHostRegexp: str,
});

const prometheus = z.strictObject({
  enabled: bool,
  image,
  logLevel: str,
  logFormat: str,
  /** Command-line flags of the prometheus binary (`--<key>=<value>`; an empty value is a bare flag). */
  args: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).nullable()),
  globalConfig: object.nullable(),
  alertRelabelConfigs: list,
  alertmanagers: list,
  remoteWrite: list,
  ruleConfigMapMounts: z.array(z.strictObject({ name: str, subPath: str, configMap: str })).nullable(),
  scrapeConfigs: list,
  sidecarContainers: list,
  /** Commented out in values.yaml: a PersistentVolumeClaim for the data volume. */
  persistence: z.strictObject({ storageClass: str.optional(), accessMode: str, size: str }).nullable().optional(),
  resources: resources.nullable(),
  proxy,
  nodeSelector: defaultedMap,
  tolerations,
});

export const VizValuesSchema = z.strictObject({
  linkerdVersion: str,
  clusterDomain: str,
  podLabels: defaultedMap,
  /** Read by the templates, not listed in values.yaml. */
  podAnnotations: stringMap.nullable().optional(),
  commonLabels: defaultedMap,
  identityTrustDomain: str,
  defaultRegistry: str,
  defaultImagePullPolicy: str,
  defaultLogLevel: str,
  defaultLogFormat: str,
  defaultUID: int,
  defaultGID: int,
  linkerdNamespace: str,
  nodeSelector: defaultedMap,
  imagePullSecrets: z.array(z.strictObject({ name: str })).default([]),
  tolerations,
  enablePodAntiAffinity: bool,
  enablePodDisruptionBudget: bool,
  /** corev1.NodeAffinity, commented out in values.yaml. */
  nodeAffinity: object.nullable().optional(),
  enablePSP: bool,
  revisionHistoryLimit: uint,
  /** Read by the templates (`| default false`), not listed in values.yaml. */
  enablePprof: bool.optional(),
  prometheusUrl: str,
  prometheusCredsSecret: str,
  jaegerUrl: str,
  metricsAPI,
  tap,
  tapInjector,
  dashboard,
  namespaceMetadata: z.strictObject({ image, nodeSelector: defaultedMap, tolerations }),
  grafana: z.strictObject({ url: optStr, externalUrl: optStr, uidPrefix: optStr }),
  prometheus,
  /** values-ha.yaml's anchor of the HA resources, a top-level key once merged. */
  resources: resources.nullable().optional(),

  // --- set by the CLI rather than the chart ---
  cliVersion: str,
  cniEnabled: bool.optional(),
  proxyContainerName: str.optional(),
});

export type VizValues = z.infer<typeof VizValuesSchema>;
export type VizValuesInput = z.input<typeof VizValuesSchema>;
export type VizResources = NonNullable<VizValues['tap']['resources']>;

const emptyResources = () => ({
  cpu: { limit: null, request: null },
  memory: { limit: null, request: null },
  'ephemeral-storage': { limit: '', request: '' },
});

const tlsDefaults = () => ({ externalSecret: false, crtPEM: '', keyPEM: '', caBundle: '', injectCaFrom: '', injectCaFromSecret: '' });

const image_ = (name: string) => ({ registry: '', name, tag: '', pullPolicy: '' });

const componentDefaults = (imageName: string) => ({
  replicas: 1,
  logLevel: '',
  logFormat: '',
  image: image_(imageName),
  resources: emptyResources(),
  proxy: null,
  UID: null,
  GID: null,
  service: { annotations: {} },
});

const LINUX = () => ({ 'kubernetes.io/os': 'linux' });

/** values.yaml of the linkerd-viz chart of this release. */
function chartDefaults(): VizValues {
  return {
    linkerdVersion: 'linkerdVersionValue',
    clusterDomain: 'cluster.local',
    podLabels: {},
    commonLabels: {},
    identityTrustDomain: '',
    defaultRegistry: 'cr.l5d.io/linkerd',
    defaultImagePullPolicy: 'IfNotPresent',
    defaultLogLevel: 'info',
    defaultLogFormat: 'plain',
    defaultUID: 2103,
    defaultGID: 2103,
    linkerdNamespace: 'linkerd',
    nodeSelector: LINUX(),
    imagePullSecrets: [],
    tolerations: null,
    enablePodAntiAffinity: false,
    enablePodDisruptionBudget: false,
    enablePSP: false,
    revisionHistoryLimit: 10,
    prometheusUrl: '',
    prometheusCredsSecret: '',
    jaegerUrl: '',
    metricsAPI: { ...componentDefaults('metrics-api'), nodeSelector: LINUX(), tolerations: null },
    tap: { ...componentDefaults('tap'), ...tlsDefaults(), ignoreHeaders: [] },
    tapInjector: {
      ...componentDefaults('tap'),
      ...tlsDefaults(),
      // The webhook must never hold up kube-system's pods.
      namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }] },
      objectSelector: null,
      failurePolicy: 'Ignore',
    },
    dashboard: { ...componentDefaults('web'), restrictPrivileges: false, enforcedHostRegexp: '' },
    namespaceMetadata: {
      image: { registry: '', name: 'extension-init', tag: 'v0.1.12', pullPolicy: '' },
      nodeSelector: LINUX(),
      tolerations: null,
    },
    grafana: { url: null, externalUrl: null, uidPrefix: null },
    prometheus: {
      enabled: true,
      image: { registry: 'prom', name: 'prometheus', tag: 'v2.55.1', pullPolicy: '' },
      logLevel: '',
      logFormat: '',
      args: { 'storage.tsdb.path': '/data', 'storage.tsdb.retention.time': '6h', 'config.file': '/etc/prometheus/prometheus.yml' },
      globalConfig: { scrape_interval: '10s', scrape_timeout: '10s', evaluation_interval: '10s' },
      alertRelabelConfigs: null,
      alertmanagers: null,
      remoteWrite: null,
      ruleConfigMapMounts: null,
      scrapeConfigs: null,
      sidecarContainers: null,
      resources: emptyResources(),
      proxy: null,
      nodeSelector: LINUX(),
      tolerations: null,
    },
    cliVersion: '',
  };
}

/**
 * The values `linkerd viz install` starts from: the chart's defaults with the version placeholder
 * replaced and `cliVersion` set, as the real command does. A fresh copy on every call.
 */
export function defaults(version: string = LINKERD_VERSION): VizValues {
  const v = chartDefaults();
  v.linkerdVersion = version;
  v.cliVersion = cliCreatedBy(version);
  return v;
}

const haResources = () => ({ cpu: { limit: '', request: '100m' }, memory: { limit: '250Mi', request: '50Mi' } });

/** values-ha.yaml, which `--ha` merges under the user's values. */
export function haOverlay(): DeepPartial<VizValues> {
  return deepClone({
    enablePodAntiAffinity: true,
    enablePodDisruptionBudget: true,
    resources: haResources(),
    tap: { replicas: 3, resources: haResources() },
    dashboard: { resources: haResources() },
    prometheus: { resources: { cpu: { limit: '', request: '300m' }, memory: { limit: '8192Mi', request: '300Mi' } } },
  });
}

/** Parses a complete viz values tree; `source` names where it came from in the one-line error. */
export function validateVizValues(tree: unknown, source: string): VizValues {
  const result = VizValuesSchema.safeParse(tree);
  if (!result.success) throw new UserError(formatIssues(result.error.issues, tree, source));
  return result.data;
}
