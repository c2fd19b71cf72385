import * as z from 'zod';
import { UserError } from '../../../core/errors.js';
import { deepClone } from '../../../core/values/index.js';
import { LINKERD_VERSION, cliCreatedBy } from '../../../core/version.js';

/*
 * The values of the linkerd-multicluster chart as one strict zod schema. Key names and nesting are
 * the chart's values.yaml, so users' `-f` files and `--set` paths work unchanged; every object level
 * is strict, so a typo is an error naming the key. Keys values.yaml has are required (defaults()
 * supplies them); keys the chart only comments out or reads without a default are optional.
 */

// Helm types `--set gateway.probe.path=3` as a number and renders it like the string: accept both.
const str = z.preprocess((v) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v), z.string());
const int = z.number().int();
const port = z.number().int().min(0).max(65535);
const bool = z.boolean();
const stringMap = z.record(z.string(), str);
/** A map the chart defaults to `{}`; `--set x=null` deletes it, which templates read as empty. */
const defaultedMap = stringMap.default({});
/** A Kubernetes object the templates pass through with `toYaml` (resources, affinity, tolerations). */
const passthrough = z.record(z.string(), z.unknown());
const tolerations = z.array(passthrough).default([]);
const envVar = z.strictObject({ name: str, value: str.optional(), valueFrom: passthrough.optional() });

const image = z.strictObject({ name: str, pullPolicy: str, version: str });

const gateway = z.strictObject({
  enabled: bool,
  replicas: int.min(0),
  name: str,
  port,
  serviceType: str,
  /** Commented out in values.yaml: emitted only for NodePort/LoadBalancer Services and when non-zero. */
  nodePort: port.optional(),
  healthCheckNodePort: port.optional(),
  probe: z.strictObject({
    path: str,
    port,
    nodePort: port.optional(),
    seconds: int.min(0),
    // In the Go values struct, read by no template.
    failureThreshold: int.optional(),
    timeout: str.optional(),
  }),
  serviceAnnotations: defaultedMap,
  serviceExternalTrafficPolicy: str,
  deploymentAnnotations: defaultedMap,
  loadBalancerClass: str,
  loadBalancerIP: str,
  loadBalancerSourceRanges: z.array(str).default([]),
  /** `""` in values.yaml (unset); a number of seconds when set. */
  terminationGracePeriodSeconds: z.union([int.min(0), z.string().regex(/^\d*$/, 'expected a number of seconds')]),
  nodeSelector: defaultedMap,
  tolerations,
  pauseImage: str,
  UID: int,
  GID: int,
});

const localServiceMirror = z.strictObject({
  serviceMirrorRetryLimit: int.min(0),
  federatedServiceSelector: str,
  /** Comma lists; `prefix/*` entries match every key under the prefix. */
  excludedLabels: str,
  excludedAnnotations: str,
  replicas: int.min(0),
  image,
  logLevel: str,
  logFormat: str,
  enablePprof: bool,
  UID: int,
  GID: int,
  resources: passthrough.default({}),
  additionalEnv: z.array(envVar).optional(),
  experimentalEnv: z.array(envVar).optional(),
});

const controllerGateway = z.strictObject({ enabled: bool, probe: z.strictObject({ port }) });

const controllerDefaults = z.strictObject({
  replicas: int.min(0),
  image,
  gateway: controllerGateway,
  logLevel: str,
  logFormat: str,
  enableHeadlessServices: bool,
  enablePprof: bool,
  UID: int,
  GID: int,
  retryLimit: int.min(0),
  resources: passthrough.default({}),
  nodeSelector: defaultedMap,
  tolerations,
  nodeAffinity: passthrough.default({}),
  enablePodAntiAffinity: bool,
});

/**
 * One `controllers[]` entry: a service mirror for the Link `link.ref.name`. Every other key falls
 * back to `controllerDefaults` (the chart's `dig`), so all are optional here; a missing name is
 * reported by render() in the chart's words.
 */
const controllerEntry = z.strictObject({
  link: z.strictObject({ ref: z.strictObject({ name: str.optional() }).optional() }).optional(),
  replicas: int.min(0).optional(),
  enablePodAntiAffinity: bool.optional(),
  nodeAffinity: passthrough.optional(),
  logLevel: str.optional(),
  logFormat: str.optional(),
  retryLimit: int.min(0).optional(),
  enableHeadlessServices: bool.optional(),
  enablePprof: bool.optional(),
  image: z.strictObject({ name: str.optional(), pullPolicy: str.optional(), version: str.optional() }).optional(),
  UID: int.optional(),
  GID: int.optional(),
  resources: passthrough.optional(),
  nodeSelector: stringMap.optional(),
  tolerations: z.array(passthrough).optional(),
  gateway: z.strictObject({ enabled: bool.optional(), probe: z.strictObject({ port: port.optional() }).optional() }).optional(),
});

export const MulticlusterValuesSchema = z.strictObject({
  gateway,
  linkerdVersion: str,
  podAnnotations: defaultedMap,
  podLabels: defaultedMap,
  commonLabels: defaultedMap,
  imagePullPolicy: str,
  imagePullSecrets: z.array(z.strictObject({ name: str })).default([]),
  proxyOutboundPort: port,
  remoteMirrorServiceAccount: bool,
  /** A comma-separated string or a list: one ServiceAccount, token Secret and RBAC per name. */
  remoteMirrorServiceAccountName: z.union([str, z.array(str)]),
  linkerdNamespace: str,
  identityTrustDomain: str,
  namespaceMetadata: z.strictObject({
    image: z.strictObject({ registry: str, name: str, tag: str, pullPolicy: str }),
    nodeSelector: defaultedMap,
    tolerations,
  }),
  enablePSP: bool,
  enableNamespaceCreation: bool,
  enablePodAntiAffinity: bool,
  nodeAffinity: passthrough.optional(),
  createNamespaceMetadataJob: bool,
  revisionHistoryLimit: int.min(0),
  localServiceMirror,
  controllers: z.array(controllerEntry).default([]),
  controllerDefaults,

  // Read by templates but absent from values.yaml.
  cniEnabled: bool.optional(),
  serviceMirrorAdditionalEnv: z.array(envVar).optional(),
  serviceMirrorExperimentalEnv: z.array(envVar).optional(),
  /** The local service mirror's scheduling (top level, unlike the gateway's). */
  nodeSelector: stringMap.optional(),
  tolerations: z.array(passthrough).optional(),
  /** `linkerd/cli <version>` on the CLI path; templates fall back to `linkerd/helm <linkerdVersion>`. */
  cliVersion: str.optional(),

  // Keys of the link chart that the Go values struct also carries: accepted, read by no install template.
  controllerImage: str.optional(),
  controllerImageVersion: str.optional(),
  serviceMirror: passthrough.optional(),
  logLevel: str.optional(),
  logFormat: str.optional(),
  serviceMirrorRetryLimit: int.optional(),
  serviceMirrorUID: int.optional(),
  serviceMirrorGID: int.optional(),
  replicas: int.optional(),
  targetClusterName: str.optional(),
});

export type MulticlusterValues = z.infer<typeof MulticlusterValuesSchema>;
export type ControllerEntry = MulticlusterValues['controllers'][number];

/** values.yaml's stand-in for the release; the CLI replaces it with its own version. */
export const VERSION_PLACEHOLDER = 'linkerdVersionValue';

const CONTROLLER_IMAGE = 'cr.l5d.io/linkerd/controller';

/** The chart's values.yaml, verbatim (version placeholders included): what Helm and upstream's goldens render. */
export function chartValues(): MulticlusterValues {
  return {
    gateway: {
      enabled: true,
      replicas: 1,
      name: 'linkerd-gateway',
      port: 4143,
      serviceType: 'LoadBalancer',
      probe: { path: '/ready', port: 4191, seconds: 3 },
      serviceAnnotations: {},
      serviceExternalTrafficPolicy: '',
      deploymentAnnotations: {},
      loadBalancerClass: '',
      loadBalancerIP: '',
      loadBalancerSourceRanges: [],
      terminationGracePeriodSeconds: '',
      nodeSelector: {},
      tolerations: [],
      pauseImage: 'registry.k8s.io/pause:3.2',
      UID: 2103,
      GID: 2103,
    },
    linkerdVersion: VERSION_PLACEHOLDER,
    podAnnotations: {},
    podLabels: {},
    commonLabels: {},
    imagePullPolicy: 'IfNotPresent',
    imagePullSecrets: [],
    proxyOutboundPort: 4140,
    remoteMirrorServiceAccount: true,
    remoteMirrorServiceAccountName: 'linkerd-service-mirror-remote-access-default',
    linkerdNamespace: 'linkerd',
    identityTrustDomain: 'cluster.local',
    namespaceMetadata: {
      image: { registry: 'cr.l5d.io/linkerd', name: 'extension-init', tag: 'v0.1.12', pullPolicy: '' },
      nodeSelector: {},
      tolerations: [],
    },
    enablePSP: false,
    enableNamespaceCreation: false,
    enablePodAntiAffinity: false,
    createNamespaceMetadataJob: true,
    revisionHistoryLimit: 10,
    localServiceMirror: {
      serviceMirrorRetryLimit: 3,
      federatedServiceSelector: 'mirror.linkerd.io/federated=member',
      excludedLabels: '',
      excludedAnnotations: '',
      replicas: 1,
      image: { name: CONTROLLER_IMAGE, pullPolicy: '', version: VERSION_PLACEHOLDER },
      logLevel: 'info',
      logFormat: 'plain',
      enablePprof: false,
      UID: 2103,
      GID: 2103,
      resources: {},
    },
    controllers: [],
    controllerDefaults: {
      replicas: 1,
      image: { name: CONTROLLER_IMAGE, pullPolicy: '', version: VERSION_PLACEHOLDER },
      gateway: { enabled: true, probe: { port: 4191 } },
      logLevel: 'info',
      logFormat: 'plain',
      enableHeadlessServices: false,
      enablePprof: false,
      UID: 2103,
      GID: 2103,
      retryLimit: 3,
      resources: {},
      nodeSelector: {},
      tolerations: [],
      nodeAffinity: {},
      enablePodAntiAffinity: false,
    },
  };
}

/**
 * The defaults `linkerd multicluster install` starts from: values.yaml with the CLI's version in
 * place of the placeholder (images, `linkerdVersion`) and `cliVersion` set, so every
 * `linkerd.io/created-by` reads `linkerd/cli <version>`.
 */
export function defaults(version: string = LINKERD_VERSION): MulticlusterValues {
  const v = chartValues();
  v.linkerdVersion = version;
  v.localServiceMirror.image.version = version;
  v.controllerDefaults.image.version = version;
  v.cliVersion = cliCreatedBy(version);
  return v;
}

/** values-ha.yaml, merged under the user's `-f`/`--set` by `--ha`. */
export function haOverlay(): { gateway: { replicas: number }; enablePodAntiAffinity: boolean } {
  return deepClone({ gateway: { replicas: 3 }, enablePodAntiAffinity: true });
}

/** What install reads from the cluster's linkerd-config (skipped with `--ignore-cluster`). */
export interface ClusterFacts {
  /** `identityTrustDomain` of the control plane: names the gateway's identity. */
  identityTrustDomain?: string;
  /** `proxy.ports.outbound`: carried into the values, read by no template. */
  proxyOutboundPort?: number;
  /** The CNI plugin is installed: the namespace may be `restricted`. */
  cniEnabled?: boolean;
}

/** Applies what install read from the cluster, as the real command does before the user's overrides. */
export function applyClusterFacts(values: MulticlusterValues, facts: ClusterFacts): void {
  if (facts.identityTrustDomain !== undefined) values.identityTrustDomain = facts.identityTrustDomain;
  if (facts.proxyOutboundPort !== undefined) values.proxyOutboundPort = facts.proxyOutboundPort;
}

/** The user's overrides gain `cniEnabled: true` when CNI was detected (so a user's own value loses to it). */
export function clusterOverrides(facts: ClusterFacts): Partial<MulticlusterValues> {
  return facts.cniEnabled ? { cniEnabled: true } : {};
}

/** `<registry>/<last path segment of image>`: how LINKERD_DOCKER_REGISTRY moves an image. */
function movedTo(registry: string, image: string): string {
  const prefix = registry.endsWith('/') ? registry : `${registry}/`;
  return prefix + image.slice(image.lastIndexOf('/') + 1);
}

/**
 * `LINKERD_DOCKER_REGISTRY`, in the chart's values: the local service mirror's image moves (a
 * user's `--set localServiceMirror.image.name` still wins). The gateway's pause image and
 * `controllerDefaults.image.name` are left alone, as the real CLI leaves them.
 */
export function applyRegistry(values: MulticlusterValues, registry: string): void {
  if (registry) values.localServiceMirror.image.name = movedTo(registry, values.localServiceMirror.image.name);
}

/** `LINKERD_DOCKER_REGISTRY`, in the user's own `controllers` entries: each image they name moves. */
export function applyRegistryToControllers(values: MulticlusterValues, registry: string): void {
  if (!registry) return;
  for (const c of values.controllers) {
    if (c.image?.name) c.image.name = movedTo(registry, c.image.name);
  }
}

/** A stand-in for the chart engine's value-flag type (k-values' `ValueFlag<V>`), until it merges. */
export interface InstallValueFlag {
  readonly name: string;
  readonly kind: 'bool' | 'int' | 'string';
  readonly default: boolean | number | string;
  readonly help: string;
  readonly unsigned?: boolean;
  apply(values: MulticlusterValues, value: boolean | number | string): void;
}

const asBool = (v: boolean | number | string): boolean => v === true || v === 'true';
const asUint = (flag: string, v: boolean | number | string, max: number): number => {
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isInteger(n) || n < 0 || n > max) throw new UserError(`invalid argument "${String(v)}" for "--${flag}" flag: value out of range`);
  return n;
};

/**
 * `multicluster install`'s value flags, in the order the real command applies them (its values
 * struct is set field by field before the user's `-f`/`--set` are merged over it). `--ha` is not a
 * value flag: it merges haOverlay() under the user's overrides.
 */
export const INSTALL_VALUE_FLAGS: readonly InstallValueFlag[] = [
  {
    name: 'gateway',
    kind: 'bool',
    default: true,
    help: 'If the gateway component should be installed',
    apply: (v, x) => void (v.gateway.enabled = asBool(x)),
  },
  {
    name: 'gateway-port',
    kind: 'int',
    default: 4143,
    unsigned: true,
    help: 'The port on the gateway used for all incoming traffic',
    apply: (v, x) => void (v.gateway.port = asUint('gateway-port', x, 65535)),
  },
  {
    name: 'gateway-probe-seconds',
    kind: 'int',
    default: 3,
    unsigned: true,
    help: 'The interval at which the gateway will be checked for being alive in seconds',
    apply: (v, x) => void (v.gateway.probe.seconds = asUint('gateway-probe-seconds', x, 0xffffffff)),
  },
  {
    name: 'gateway-probe-port',
    kind: 'int',
    default: 4191,
    unsigned: true,
    help: 'The liveness check port of the gateway',
    apply: (v, x) => void (v.gateway.probe.port = asUint('gateway-probe-port', x, 65535)),
  },
  {
    name: 'service-mirror-credentials',
    kind: 'bool',
    default: true,
    help: 'Whether to install the service account which can be used by service mirror components in source clusters to discover exported services',
    apply: (v, x) => void (v.remoteMirrorServiceAccount = asBool(x)),
  },
  {
    name: 'gateway-service-type',
    kind: 'string',
    default: 'LoadBalancer',
    help: 'Overwrite Service type for gateway service',
    apply: (v, x) => void (v.gateway.serviceType = String(x)),
  },
  {
    name: 'gateway-healthcheck-nodeport',
    kind: 'int',
    default: 0,
    unsigned: true,
    help: 'Set the healthCheckNodePort on the gateway service (only used when externalTrafficPolicy is Local)',
    apply: (v, x) => void (v.gateway.healthCheckNodePort = asUint('gateway-healthcheck-nodeport', x, 65535)),
  },
];

/** `-L`: always written into the values (even when `linkerd`), naming the gateway's identity and PSP. */
export function applyLinkerdNamespace(values: MulticlusterValues, namespace: string): void {
  values.linkerdNamespace = namespace;
}
