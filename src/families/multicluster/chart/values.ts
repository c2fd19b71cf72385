import * as z from 'zod';
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
