import * as z from 'zod';
import { bool, int, str, stringMap, toleration, uint } from './schemaParts.js';

// A CLI parses the values a handful of times per run: zod's JIT (generating parser code with
// `new Function`) costs more than it saves at that count, so interpret the schema instead.
z.config({ jitless: true });

/*
 * The values of the linkerd-control-plane chart (merged with the linkerd-crds chart), as one strict
 * zod schema. Key names and nesting follow the real chart so users' `-f values.yaml` files and
 * `--set a.b=c` paths keep working; every object level is strict so a typo is an error, not a no-op.
 *
 * Keys present in the chart's values.yaml are required here (defaults.ts supplies them); keys the chart
 * only documents in comments (e.g. `heartbeatSchedule`, `identityResources`) or that exist in the Go
 * `Values` struct without a chart default (e.g. `proxy.isIngress`) are optional.
 *
 * Rules with user-visible error texts (log levels, pull policy, inbound policy, quantities, …) are NOT
 * encoded as enums here: validate.ts reproduces linkerd's exact messages for them.
 */

const port = z.number().int().min(0).max(65535);
/**
 * A string map the chart defaults (e.g. nodeSelector, podAnnotations). Deleting it with
 * `--set nodeSelector=null` is legitimate in Helm (the template then renders nothing), so a missing
 * map reads as empty instead of failing.
 */
const defaultedMap = stringMap.default({});
/** A Kubernetes IntOrString (e.g. rollingUpdate.maxUnavailable: 1 or "25%"). */
const intOrString = z.union([int, z.string()]);

const constraint = z.strictObject({ limit: str, request: str });
/** Resources where every field is present (proxy, policy controller). */
const fullResources = z.strictObject({
  cpu: constraint,
  memory: constraint,
  'ephemeral-storage': constraint,
});
/** Resources of control-plane components: any subset may be given. */
const partialConstraint = z.strictObject({ limit: str.optional(), request: str.optional() });
const resources = z.strictObject({
  cpu: partialConstraint.optional(),
  memory: partialConstraint.optional(),
  'ephemeral-storage': partialConstraint.optional(),
});

const image = z.strictObject({ name: str, pullPolicy: str, version: str });
const timeoutProbe = z.strictObject({ timeoutSeconds: uint });
const delayedProbe = z.strictObject({ initialDelaySeconds: uint, timeoutSeconds: uint });
const startupProbe = z.strictObject({ initialDelaySeconds: uint, periodSeconds: uint, failureThreshold: uint });

const labelSelectorRequirement = z.strictObject({
  key: str,
  operator: z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist']),
  values: z.array(str).optional(),
});
const labelSelector = z.strictObject({
  matchLabels: stringMap.optional(),
  matchExpressions: z.array(labelSelectorRequirement).optional(),
});

/** corev1.EnvVar; valueFrom is a Kubernetes object we pass through untouched. */
const envVar = z.strictObject({
  name: str,
  value: str.optional(),
  valueFrom: z.record(z.string(), z.unknown()).optional(),
});
const capabilities = z.strictObject({ add: z.array(str).optional(), drop: z.array(str).optional() });
const volumeMountPath = z.strictObject({ name: str, mountPath: str, readOnly: bool.optional() });
const kubeAPI = z.strictObject({ clientQPS: z.number(), clientBurst: int });

/** Webhook TLS material and selectors shared by the three admission webhooks. */
const webhookFields = {
  externalSecret: bool,
  namespaceSelector: labelSelector,
  crtPEM: str,
  keyPEM: str,
  caBundle: str,
  injectCaFrom: str,
  injectCaFromSecret: str,
};

/** scope → protocol → parameter (e.g. server → http2 → keepAliveInterval), each becoming one proxy env var. */
const proxyParams = z.record(z.string(), z.record(z.string(), z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))));

const tracingCollector = z.strictObject({
  endpoint: str,
  meshIdentity: z.strictObject({ serviceAccountName: str, namespace: str }),
});

const proxy = z.strictObject({
  enableExternalProfiles: bool,
  outboundConnectTimeout: str,
  inboundConnectTimeout: str,
  outboundDiscoveryCacheUnusedTimeout: str,
  inboundDiscoveryCacheUnusedTimeout: str,
  disableOutboundProtocolDetectTimeout: bool,
  disableInboundProtocolDetectTimeout: bool,
  image,
  enableShutdownEndpoint: bool,
  logLevel: str,
  logFormat: str,
  logHTTPHeaders: z.enum(['off', 'insecure']),
  ports: z.strictObject({ admin: port, control: port, inbound: port, outbound: port }),
  /** Deprecated in favour of runtime.workers.minimum; still honoured by the templates. */
  cores: uint.optional(),
  runtime: z.strictObject({
    workers: z.strictObject({
      minimum: uint,
      maximum: uint.optional(),
      maximumCPURatio: z.number().min(0).max(1).optional(),
    }),
  }),
  resources: fullResources,
  uid: int,
  gid: int,
  waitBeforeExitSeconds: uint,
  await: bool,
  requireIdentityOnInboundPorts: str,
  /** Ports on which the proxy requires TLS (not necessarily mesh identity); no flag, set through annotations. */
  requireTLSOnInboundPorts: str.optional(),
  opaquePorts: str,
  shutdownGracePeriod: str,
  defaultInboundPolicy: str,
  outboundTransportMode: z.enum(['transport-header', 'transparent']),
  nativeSidecar: bool,
  livenessProbe: delayedProbe,
  readinessProbe: delayedProbe,
  startupProbe,
  control: z.strictObject({
    streams: z.strictObject({ initialTimeout: str, idleTimeout: str, lifetime: str }),
  }),
  inbound: proxyParams,
  outbound: proxyParams,
  metrics: z.strictObject({ hostnameLabels: bool }),
  tracing: z.strictObject({
    enabled: bool,
    traceServiceName: str,
    /** Empty means `opentelemetry`, the only protocol the proxy still speaks. */
    protocol: str.optional(),
    collector: tracingCollector,
    /** Extra span attributes (the chart's default: pod uid/ip/container name); absent in older configs. */
    labels: stringMap.optional(),
  }),
  // Not in the chart's values.yaml, but fields of the Go Values struct (no omitempty, so always
  // written; defaults.ts supplies false) that the injector reads. Optional: older configs lack them.
  isIngress: bool.optional(),
  isGateway: bool.optional(),
  accessLog: str.optional(),
  podInboundPorts: str.optional(),
  additionalEnv: z.array(envVar).optional(),
  experimentalEnv: z.array(envVar).optional(),
  capabilities: capabilities.optional(),
  /** Used verbatim as the proxy container's securityContext (a Kubernetes object). */
  securityContext: z.record(z.string(), z.unknown()).optional(),
  saMountPath: volumeMountPath.optional(),
});

const proxyInit = z.strictObject({
  iptablesMode: z.enum(['nft', 'legacy']),
  ignoreInboundPorts: str,
  ignoreOutboundPorts: str,
  kubeAPIServerPorts: str,
  skipSubnets: str,
  logLevel: str,
  logFormat: str,
  closeWaitTimeoutSecs: uint,
  privileged: bool,
  runAsRoot: bool,
  runAsUser: int,
  runAsGroup: int,
  xtMountPath: volumeMountPath,
  // proxy-init runs from the proxy image in this release, so there is deliberately no `image` key.
  resources: resources.optional(),
  capabilities: capabilities.optional(),
  saMountPath: volumeMountPath.optional(),
});

const networkValidator = z.strictObject({
  logLevel: str,
  logFormat: str,
  connectAddr: str,
  listenAddr: str,
  timeout: str,
  enableSecurityContext: bool,
  /** The container's securityContext (a Kubernetes object) while enableSecurityContext is on. */
  securityContext: z.record(z.string(), z.unknown()),
});

const policyController = z.strictObject({
  image,
  logLevel: str,
  probeNetworks: z.array(str),
  resources: fullResources,
  livenessProbe: timeoutProbe,
  readinessProbe: timeoutProbe,
});

const identity = z.strictObject({
  externalCA: bool,
  serviceAccountTokenProjection: bool,
  issuer: z.strictObject({
    scheme: z.enum(['linkerd.io/tls', 'kubernetes.io/tls']),
    clockSkewAllowance: str,
    issuanceLifetime: str,
    tls: z.strictObject({
      crtPEM: str,
      keyPEM: str,
      // base64 variants some chart versions accept; never set by the CLI.
      crtPEM64: str.optional(),
      keyPEM64: str.optional(),
    }),
  }),
  kubeAPI,
  podAnnotations: defaultedMap,
  livenessProbe: timeoutProbe,
  readinessProbe: timeoutProbe,
  additionalEnv: z.array(envVar).optional(),
  experimentalEnv: z.array(envVar).optional(),
});

const proxyInjector = z.strictObject({
  ...webhookFields,
  timeoutSeconds: z.number().int().min(1).max(30),
  objectSelector: labelSelector,
  podAnnotations: defaultedMap,
  livenessProbe: timeoutProbe,
  readinessProbe: timeoutProbe,
  additionalEnv: z.array(envVar).optional(),
  experimentalEnv: z.array(envVar).optional(),
});

const validatorWebhook = z.strictObject(webhookFields);

const podMonitor = z.strictObject({
  enabled: bool,
  scrapeInterval: str,
  scrapeTimeout: str,
  labels: defaultedMap,
  controller: z.strictObject({ enabled: bool, namespaceSelector: str, honorTimestamps: bool }),
  serviceMirror: z.strictObject({ enabled: bool, honorTimestamps: bool }),
  proxy: z.strictObject({ enabled: bool, honorTimestamps: bool }),
});

const deploymentStrategy = z.strictObject({
  type: str.optional(),
  rollingUpdate: z.strictObject({ maxUnavailable: intOrString.optional(), maxSurge: intOrString.optional() }).optional(),
});

export const ValuesSchema = z.strictObject({
  // --- linkerd-crds chart ---
  installGatewayAPI: bool,
  /** Each, when present, overrides installGatewayAPI for its CRDs (absent ≠ false). */
  enableHttpRoutes: bool.optional(),
  enableTlsRoutes: bool.optional(),
  enableTcpRoutes: bool.optional(),

  // --- linkerd-control-plane chart ---
  clusterDomain: str,
  clusterNetworks: str,
  imagePullPolicy: str,
  revisionHistoryLimit: uint,
  controllerLogLevel: str,
  controllerLogFormat: str,
  linkerdVersion: str,
  deploymentStrategy,
  enableEndpointSlices: bool,
  enablePodAntiAffinity: bool,
  enablePprof: bool,
  enablePodDisruptionBudget: bool,
  disableIPv6: bool,
  controller: z.strictObject({
    podDisruptionBudget: z.strictObject({ maxUnavailable: intOrString }),
    tracing: z
      .strictObject({
        enabled: bool.optional(),
        collector: z
          .strictObject({
            endpoint: str.optional(),
            meshIdentity: z.strictObject({ serviceAccountName: str, namespace: str }).optional(),
          })
          .optional(),
      })
      .optional(),
  }),
  cniEnabled: bool,
  identityTrustAnchorsPEM: str,
  identityTrustDomain: str,
  kubeAPI,
  podAnnotations: defaultedMap,
  podLabels: defaultedMap,
  commonLabels: defaultedMap,
  priorityClassName: str,
  runtimeClassName: str,
  policyController,
  proxy,
  proxyInit,
  networkValidator,
  imagePullSecrets: z.array(z.strictObject({ name: str })).default([]),
  enableH2Upgrade: bool,
  enablePSP: bool,
  webhookFailurePolicy: z.enum(['Ignore', 'Fail']),
  controllerImage: str,
  controllerImageVersion: str,
  controllerReplicas: uint,
  controllerUID: int,
  controllerGID: int,
  destinationController: z.strictObject({
    podAnnotations: defaultedMap,
    livenessProbe: timeoutProbe,
    readinessProbe: timeoutProbe,
    additionalArgs: z.array(str).optional(),
    meshedHttp2ClientProtobuf: z.record(z.string(), z.unknown()).optional(),
    additionalEnv: z.array(envVar).optional(),
    experimentalEnv: z.array(envVar).optional(),
  }),
  debugContainer: z.strictObject({ image }),
  identity,
  disableHeartBeat: bool,
  heartbeatSchedule: str.optional(),
  proxyInjector,
  profileValidator: validatorWebhook,
  policyValidator: validatorWebhook,
  nodeSelector: defaultedMap,
  spValidator: z.strictObject({ livenessProbe: timeoutProbe, readinessProbe: timeoutProbe }),
  tolerations: z.array(toleration).optional(),
  /** corev1.NodeAffinity, passed through to the pod specs. */
  nodeAffinity: z.record(z.string(), z.unknown()).optional(),
  prometheusUrl: str,
  podMonitor,
  egress: z.strictObject({ globalEgressNetworkNamespace: str }),

  // Component resources: documented in the chart but commented out, so optional.
  controllerResources: resources.optional(),
  destinationResources: resources.optional(),
  identityResources: resources.optional(),
  heartbeatResources: resources.optional(),
  proxyInjectorResources: resources.optional(),
  spValidatorResources: resources.optional(),
  destinationProxyResources: resources.optional(),
  identityProxyResources: resources.optional(),
  proxyInjectorProxyResources: resources.optional(),
  /** Extra heartbeat settings (a free-form map in the Go struct). */
  heartbeat: z.record(z.string(), z.unknown()).optional(),
  /** Readers of linkerd-config for the `ext-namespace-metadata-linkerd-config` RoleBinding; shape not fixed by the chart. */
  configReaders: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]).optional(),
  /** Older charts' switch for emitting the Namespace object. */
  installNamespace: bool.optional(),

  // --- set by the CLI (NewValues) rather than the chart ---
  highAvailability: bool,
  cliVersion: str,
  proxyContainerName: str,
});

export type Values = z.infer<typeof ValuesSchema>;
/** What a values file or `--set` may contain before validation. */
export type ValuesInput = z.input<typeof ValuesSchema>;

/** Every key optional, recursively; arrays are replaced whole, as in Helm. */
export type DeepPartial<T> = T extends readonly (infer U)[] ? U[] : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;
