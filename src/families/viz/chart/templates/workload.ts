import type { Deployment, DeploymentStrategy } from 'kubernetes-types/apps/v1.js';
import type {
  Container,
  ContainerPort,
  PodSecurityContext,
  PodSpec,
  Probe,
  SecurityContext,
  Service,
  ServicePort,
  Toleration,
  Volume,
  VolumeMount,
} from 'kubernetes-types/core/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import { type ChartResources, proxyResourceAnnotations, resourceRequirements } from '../../../../../templates/proxy/resources.js';
import { componentAffinity } from '../../../../../templates/shared/affinity.js';
import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { type VizComponent, componentSelector, createdByAnnotation, namespacedMeta, vizLabels } from './meta.js';
import { INJECT_ANNOTATION } from '../../../../core/mesh/names.js';
import { restrictedSecurityContext } from '../../../../../templates/shared/securityContext.js';

export { restrictedSecurityContext };

/*
 * What the viz Deployments and Services share. Unlike the control plane, viz pods are not rendered
 * with their proxy: they are annotated `linkerd.io/inject: enabled` and the proxy injector adds it
 * when the pods are created, reading the per-component proxy resources from annotations.
 */

const INJECT = { [INJECT_ANNOTATION]: 'enabled' };

type ImageValues = VizValues['tap']['image'];

/** `<registry|defaultRegistry>/<name>:<tag|linkerdVersion>`. */
export function vizImage(values: VizValues, image: ImageValues, tag?: string): string {
  return `${image.registry || values.defaultRegistry}/${image.name}:${image.tag || tag || values.linkerdVersion}`;
}

export function pullPolicy(values: VizValues, image: ImageValues): string {
  return image.pullPolicy || values.defaultImagePullPolicy;
}

/** Helm's `default` treats 0 as unset, so `UID: 0` falls back to the default too. */
function orDefault(v: number | null | undefined, fallback: number): number {
  return v || fallback;
}

/** A component's UID/GID, else defaultUID/defaultGID. */
export function componentSecurityContext(values: VizValues, c: { UID: number | null; GID?: number | null }): SecurityContext {
  return restrictedSecurityContext(orDefault(c.UID, values.defaultUID), orDefault(c.GID, values.defaultGID));
}

export function httpProbe(path: string, port: number, extra: Omit<Probe, 'httpGet'> = {}): Probe {
  return { httpGet: { path, port }, ...extra };
}

export interface VizContainerSpec {
  name: string;
  args: string[];
  image: string;
  imagePullPolicy: string;
  ports: ContainerPort[];
  /** The admin port: liveness on /ping (after 10 s), readiness on /ready (7 failures). */
  adminPort: number;
  resources: ChartResources | null;
  securityContext: SecurityContext;
  volumeMounts: VolumeMount[];
}

/** A viz controller container, keys in the chart's order. */
export function vizContainer(c: VizContainerSpec): Container {
  const out: Container = {
    args: c.args,
    image: c.image,
    imagePullPolicy: c.imagePullPolicy,
    livenessProbe: httpProbe('/ping', c.adminPort, { initialDelaySeconds: 10 }),
    name: c.name,
    ports: c.ports,
    readinessProbe: httpProbe('/ready', c.adminPort, { failureThreshold: 7 }),
  };
  const resources = resourceRequirements(c.resources);
  if (resources) out.resources = resources;
  out.securityContext = c.securityContext;
  out.volumeMounts = c.volumeMounts;
  return out;
}

/** `-log-level` / `-log-format` of a component, else the defaults. */
export function logArgs(values: VizValues, c: { logLevel: string; logFormat: string }): string[] {
  return [`-log-level=${c.logLevel || values.defaultLogLevel}`, `-log-format=${c.logFormat || values.defaultLogFormat}`];
}

export interface VizServiceInput {
  component: VizComponent;
  /** Whether the Service carries the `namespace` label (tap, web, prometheus). */
  namespaceLabel?: boolean;
  ports: ServicePort[];
  annotations?: Record<string, string>;
  labels?: Record<string, string> | null;
}

export function vizService(values: VizValues, ctx: VizContext, s: VizServiceInput): Service {
  const labels = { ...vizLabels(values, { component: s.component, namespace: s.namespaceLabel ? ctx.namespace : undefined }), ...s.labels };
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: namespacedMeta(s.component, ctx.namespace, labels, { ...createdByAnnotation(values), ...s.annotations, ...INJECT }),
    spec: { type: 'ClusterIP', selector: componentSelector(s.component), ports: s.ports },
  };
}

export interface VizDeploymentInput {
  component: VizComponent;
  replicas: number;
  /** Whether labels and selector carry `namespace` (tap, web, prometheus). */
  namespaceLabel?: boolean;
  proxy: VizValues['tap']['proxy'];
  containers: Container[];
  volumes?: Volume[];
  nodeSelector: Record<string, string>;
  tolerations: Toleration[] | null | undefined;
  /** False for prometheus, which reads the API with its own token. */
  manualToken?: boolean;
  podSecurityContext?: PodSecurityContext;
  strategy?: DeploymentStrategy;
  /** The pod's extra annotations after the created-by one. */
  podAnnotations?: Record<string, string>;
  /** Prometheus is a singleton: no HA anti-affinity. */
  noAntiAffinity?: boolean;
}

function podSpec(values: VizValues, d: VizDeploymentInput): PodSpec {
  const spec = {} as PodSpec;
  if (d.tolerations?.length) spec.tolerations = structuredClone(d.tolerations);
  spec.nodeSelector = { ...d.nodeSelector };
  const affinity = componentAffinity({
    labelKey: 'component',
    component: d.component,
    antiAffinity: values.enablePodAntiAffinity && !d.noAntiAffinity,
    nodeAffinity: values.nodeAffinity,
  });
  if (affinity) spec.affinity = affinity;
  if (d.manualToken !== false) spec.automountServiceAccountToken = false;
  spec.containers = d.containers;
  spec.securityContext = { ...d.podSecurityContext, seccompProfile: { type: 'RuntimeDefault' } };
  spec.serviceAccountName = d.component;
  if (d.volumes?.length) spec.volumes = d.volumes;
  return spec;
}

/**
 * A viz Deployment: annotated for injection (and for the proxy to hold the app until it is ready),
 * its proxy resources as annotations, scheduling from the values.
 */
export function vizDeployment(values: VizValues, ctx: VizContext, d: VizDeploymentInput): Deployment {
  const ns = d.namespaceLabel ? ctx.namespace : undefined;
  const selector = componentSelector(d.component, ns);
  const labels = {
    ...vizLabels(values, {}),
    'app.kubernetes.io/name': d.component,
    'app.kubernetes.io/part-of': 'Linkerd',
    'app.kubernetes.io/version': values.linkerdVersion,
    component: d.component,
    ...(ns ? { namespace: ns } : {}),
    ...values.commonLabels,
  };
  const spec: Deployment['spec'] = {
    replicas: d.replicas,
    revisionHistoryLimit: values.revisionHistoryLimit,
    selector: { matchLabels: selector },
    ...(d.strategy ? { strategy: d.strategy } : {}),
    template: {
      metadata: {
        annotations: {
          ...createdByAnnotation(values),
          ...proxyResourceAnnotations(d.proxy?.resources),
          ...values.podAnnotations,
          ...INJECT,
          'config.alpha.linkerd.io/proxy-wait-before-exit-seconds': '0',
          'cluster-autoscaler.kubernetes.io/safe-to-evict': 'true',
          ...d.podAnnotations,
        },
        labels: { ...selector, ...values.podLabels },
      },
      spec: podSpec(values, d),
    },
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: namespacedMeta(d.component, ctx.namespace, labels, { ...createdByAnnotation(values), ...INJECT, 'config.linkerd.io/proxy-await': 'enabled' }),
    spec,
  };
}

/** With `enablePodDisruptionBudget` and more than one replica, at most one replica may be down. */
export function vizPodDisruptionBudget(
  values: VizValues,
  ctx: VizContext,
  component: VizComponent,
  replicas: number,
  namespaceLabel = false,
): PodDisruptionBudget[] {
  if (!values.enablePodDisruptionBudget || replicas <= 1) return [];
  return [
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: namespacedMeta(
        component,
        ctx.namespace,
        vizLabels(values, { component, namespace: namespaceLabel ? ctx.namespace : undefined }),
        createdByAnnotation(values),
      ),
      spec: { maxUnavailable: 1, selector: { matchLabels: componentSelector(component) } },
    },
  ];
}
