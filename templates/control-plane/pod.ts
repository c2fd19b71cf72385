import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type {
  Affinity,
  Container,
  ContainerPort,
  EnvVar,
  ResourceRequirements,
  HTTPGetAction,
  PodSecurityContext,
  PodSpec,
  Probe,
  SecurityContext,
  Volume,
  VolumeMount,
} from 'kubernetes-types/core/v1.js';
import type { Values } from '../../src/core/values/index.js';
import { mergeValues } from '../../src/core/values/index.js';
import { componentAffinity } from '../shared/affinity.js';
import { KUBE_API_ACCESS, kubeApiAccessMount, kubeApiAccessVolume } from '../shared/serviceAccountToken.js';
import { injectedPodMetadata, resourceRequirements, sidecarParts, withSidecar, type ChartResources } from '../proxy/index.js';
import type { ControlPlaneContext } from './context.js';
import { type Component, CONTROL_PLANE_COMPONENT, CONTROL_PLANE_NS, componentLabels, createdBy, createdByAnnotation, namespacedMeta } from './metadata.js';

/*
 * What the control-plane workloads share: image, security contexts, the hand-made API token
 * volume, scheduling (node selector, tolerations, HA anti-affinity), and their proxy, built by
 * the same function `inject` uses.
 */

export type ProxiedComponent = 'linkerd-identity' | 'linkerd-destination' | 'linkerd-proxy-injector';

export function controllerImage(values: Values): string {
  return `${values.controllerImage}:${values.controllerImageVersion || values.linkerdVersion}`;
}

export { KUBE_API_ACCESS, kubeApiAccessVolume, kubeApiAccessMount } from '../shared/serviceAccountToken.js';

/** The controllers run unprivileged, read-only, with every capability dropped. */
export function controllerSecurityContext(values: Values): SecurityContext {
  const sc: SecurityContext = {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
    readOnlyRootFilesystem: true,
    runAsNonRoot: true,
    runAsUser: values.controllerUID,
  };
  if (values.controllerGID >= 0) sc.runAsGroup = values.controllerGID;
  sc.seccompProfile = { type: 'RuntimeDefault' };
  return sc;
}

export function httpProbe(path: string, port: number | string, extra: Omit<Probe, 'httpGet'> = {}): Probe {
  const httpGet: HTTPGetAction = { path, port };
  return { httpGet, ...extra };
}

/** A controller container's resources from a chart resources block; undefined when nothing is set. */
export function controllerResources(r: ChartResources | undefined) {
  return resourceRequirements(r);
}

export interface ControllerContainerSpec {
  name: string;
  args: string[];
  command?: string[];
  image?: string;
  imagePullPolicy?: string;
  env?: EnvVar[];
  ports: ContainerPort[];
  /** Port (number or name) of the admin server that answers the probes. */
  adminPort: number | string;
  livenessPath?: string;
  probeTimeouts: { livenessProbe: { timeoutSeconds: number }; readinessProbe: { timeoutSeconds: number } };
  resources?: ResourceRequirements;
  /** Mounts before the hand-made API token mount, which every controller gets last. */
  volumeMounts?: VolumeMount[];
}

/**
 * A control-plane controller container: the controller image, liveness and readiness on its admin
 * server, the restricted security context and the API token mount. Keys in the order the chart
 * renders them.
 */
export function controllerContainer(values: Values, spec: ControllerContainerSpec): Container {
  const c = { args: spec.args } as Container;
  if (spec.command) c.command = spec.command;
  if (spec.env?.length) c.env = spec.env;
  c.image = spec.image ?? controllerImage(values);
  c.imagePullPolicy = spec.imagePullPolicy || values.imagePullPolicy;
  c.livenessProbe = httpProbe(spec.livenessPath ?? '/ping', spec.adminPort, {
    initialDelaySeconds: 10,
    timeoutSeconds: spec.probeTimeouts.livenessProbe.timeoutSeconds,
  });
  c.name = spec.name;
  c.ports = spec.ports;
  c.readinessProbe = httpProbe('/ready', spec.adminPort, { failureThreshold: 7, timeoutSeconds: spec.probeTimeouts.readinessProbe.timeoutSeconds });
  if (spec.resources) c.resources = spec.resources;
  c.securityContext = controllerSecurityContext(values);
  c.volumeMounts = [...(spec.volumeMounts ?? []), kubeApiAccessMount()];
  return c;
}

/** A component's `additionalEnv` then `experimentalEnv`. */
export function extraEnv(component: { additionalEnv?: unknown; experimentalEnv?: unknown }): EnvVar[] {
  return [...((component.additionalEnv ?? []) as EnvVar[]), ...((component.experimentalEnv ?? []) as EnvVar[])];
}

/** The chart's `linkerd.affinity`: HA anti-affinity per component, plus the user's nodeAffinity. */
function affinity(values: Values, component: Component): Affinity | undefined {
  return componentAffinity({ labelKey: CONTROL_PLANE_COMPONENT, component, antiAffinity: values.enablePodAntiAffinity, nodeAffinity: values.nodeAffinity });
}

export interface PodInput {
  component: Component;
  serviceAccountName: string;
  containers: Container[];
  /** The component's own volumes; the API token volume is added after them. */
  volumes: Volume[];
  restartPolicy?: PodSpec['restartPolicy'];
  /** The heartbeat is a one-off job: no HA anti-affinity. */
  noAntiAffinity?: boolean;
}

/** A control-plane pod spec before its proxy is added. */
export function controlPlanePodSpec(values: Values, input: PodInput): PodSpec {
  const spec = {} as PodSpec;
  if (values.runtimeClassName) spec.runtimeClassName = values.runtimeClassName;
  if (values.tolerations?.length) spec.tolerations = structuredClone(values.tolerations);
  spec.nodeSelector = { ...values.nodeSelector };
  const aff = affinity(input.noAntiAffinity ? { ...values, enablePodAntiAffinity: false } : values, input.component);
  if (aff) spec.affinity = aff;
  spec.containers = input.containers;
  if (values.priorityClassName) spec.priorityClassName = values.priorityClassName;
  if (input.restartPolicy) spec.restartPolicy = input.restartPolicy;
  spec.serviceAccountName = input.serviceAccountName;
  spec.automountServiceAccountToken = false;
  const podSc: PodSecurityContext = { seccompProfile: { type: 'RuntimeDefault' } };
  spec.securityContext = podSc;
  spec.volumes = [...input.volumes, kubeApiAccessVolume()];
  return spec;
}

export interface ControlPlaneProxy {
  component: ProxiedComponent;
  /** The inbound ports of the pod (LINKERD2_PROXY_INBOUND_PORTS), fixed per component like the chart. */
  podInboundPorts: string;
  /** `<component>ProxyResources`, merged over proxy.resources. */
  proxyResources?: ChartResources;
  /** The identity proxy cannot wait for identity (it is the identity): a plain container, no await. */
  regularContainer?: boolean;
  /** Ports on which the proxy refuses plaintext (the identity service). */
  requireTLSOnInboundPorts?: string;
}

/**
 * The values a control-plane proxy is rendered from: the webhooks' traffic does not come from
 * meshed clients, so the proxies admit all traffic; everything else is the mesh's proxy config.
 */
export function controlPlaneProxyValues(values: Values, p: ControlPlaneProxy): Values {
  const v = structuredClone(values);
  if (p.proxyResources && Object.keys(p.proxyResources).length) {
    v.proxy.resources = mergeValues(v.proxy.resources, p.proxyResources) as Values['proxy']['resources'];
  }
  v.proxy.defaultInboundPolicy = 'all-unauthenticated';
  v.proxy.podInboundPorts = p.podInboundPorts;
  if (p.regularContainer) {
    v.proxy.nativeSidecar = false;
    v.proxy.await = false;
  }
  if (p.requireTLSOnInboundPorts) Object.assign(v.proxy, { requireTLSOnInboundPorts: p.requireTLSOnInboundPorts });
  return v;
}

/** Adds the proxy (and proxy-init or the network validator) to a control-plane pod spec. */
function withControlPlaneProxy(values: Values, ctx: ControlPlaneContext, spec: PodSpec, p: ControlPlaneProxy): PodSpec {
  // Injection copies a hand-mounted API token into the proxy; the control-plane proxies do not
  // talk to the API, so they are shown the pod without that mount.
  const podSpec: PodSpec = {
    ...spec,
    containers: spec.containers.map((c) => ({ ...c, volumeMounts: c.volumeMounts?.filter((m) => m.name !== KUBE_API_ACCESS) })),
  };
  const parts = sidecarParts(controlPlaneProxyValues(values, p), { controlPlaneNamespace: ctx.namespace, podSpec, component: p.component });
  return withSidecar(spec, parts);
}

interface DeploymentInput {
  name: ProxiedComponent;
  component: Component;
  /** Selector labels beyond the component (identity and destination also select on ns and proxy-deployment). */
  fullSelector: boolean;
  spec: PodSpec;
  /** Annotations placed before `linkerd.io/created-by` (checksum/config). */
  leadingAnnotations?: Record<string, string>;
  /** Component annotations (opaque ports) and the component's podAnnotations. */
  annotations?: Record<string, string>;
}

/** A control-plane Deployment with the pod metadata injection would give it. */
function controlPlaneDeployment(values: Values, ctx: ControlPlaneContext, d: DeploymentInput): Deployment {
  const injected = injectedPodMetadata(values, {
    controlPlaneNamespace: ctx.namespace,
    ownerKind: 'deployment',
    ownerName: d.name,
    workloadNamespace: ctx.namespace,
    createdBy: createdBy(values, ctx),
  });
  const proxyDeployment = { 'linkerd.io/proxy-deployment': d.name };
  const selector = d.fullSelector
    ? { [CONTROL_PLANE_COMPONENT]: d.component, [CONTROL_PLANE_NS]: ctx.namespace, ...proxyDeployment }
    : { [CONTROL_PLANE_COMPONENT]: d.component };
  const appName = d.name.replace(/^linkerd-/, '');
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: namespacedMeta(
      d.name,
      ctx,
      componentLabels(values, ctx, d.component, {
        'app.kubernetes.io/name': appName,
        'app.kubernetes.io/part-of': 'Linkerd',
        'app.kubernetes.io/version': values.linkerdVersion,
      }),
      createdByAnnotation(values, ctx),
    ),
    spec: {
      replicas: values.controllerReplicas,
      revisionHistoryLimit: values.revisionHistoryLimit,
      selector: { matchLabels: selector },
      strategy: structuredClone(values.deploymentStrategy),
      template: {
        metadata: {
          annotations: {
            ...d.leadingAnnotations,
            ...injected.annotations,
            'cluster-autoscaler.kubernetes.io/safe-to-evict': 'true',
            'config.linkerd.io/default-inbound-policy': 'all-unauthenticated',
            ...d.annotations,
            ...values.podAnnotations,
          },
          labels: {
            [CONTROL_PLANE_COMPONENT]: d.component,
            ...injected.labels,
            ...proxyDeployment,
            ...values.podLabels,
          },
        },
        spec: d.spec,
      },
    },
  };
}

/** What makes one proxied control-plane Deployment different from the others. */
export interface ProxiedDeploymentInput {
  component: 'destination' | 'identity' | 'proxy-injector';
  containers: Container[];
  /** The component's own volumes; the API token volume is added after them. */
  volumes: Volume[];
  proxy: Omit<ControlPlaneProxy, 'component'>;
  /** Selector labels beyond the component (identity and destination also select on ns and proxy-deployment). */
  fullSelector: boolean;
  /** Annotations placed before `linkerd.io/created-by` (checksum/config). */
  leadingAnnotations?: Record<string, string>;
  /** Component annotations (opaque ports) and the component's podAnnotations. */
  annotations?: Record<string, string>;
}

/**
 * A control-plane Deployment with its proxy (destination, identity, proxy-injector): the pod spec,
 * the proxy added as injection would add it, and the pod metadata injection would give it. The
 * Deployment, its ServiceAccount and its proxy are all `linkerd-<component>`.
 */
export function proxiedDeployment(values: Values, ctx: ControlPlaneContext, d: ProxiedDeploymentInput): Deployment {
  const name: ProxiedComponent = `linkerd-${d.component}`;
  const pod = controlPlanePodSpec(values, { component: d.component, serviceAccountName: name, containers: d.containers, volumes: d.volumes });
  const spec = withControlPlaneProxy(values, ctx, pod, { component: name, ...d.proxy });
  return controlPlaneDeployment(values, ctx, {
    name,
    component: d.component,
    fullSelector: d.fullSelector,
    spec,
    leadingAnnotations: d.leadingAnnotations,
    annotations: d.annotations,
  });
}
