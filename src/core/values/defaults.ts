import { LINKERD_VERSION, cliCreatedBy } from '../version.js';
import type { DeepPartial, Values } from './schema.js';
import { deepClone, deepFreeze } from './tree.js';

/*
 * Chart defaults as TypeScript data (no YAML parsing at start-up). Facts come from
 * charts/linkerd-control-plane/values.yaml, values-ha.yaml and charts/linkerd-crds/values.yaml of this
 * release; where this release differs from older charts (nativeSidecar, iptablesMode, clusterNetworks,
 * proxy log level, no proxy-init image) the spec's values win.
 */

const VERSION_PLACEHOLDER = 'linkerdVersionValue';

const emptyResources = () => ({
  cpu: { limit: '', request: '' },
  memory: { limit: '', request: '' },
  'ephemeral-storage': { limit: '', request: '' },
});

const timeoutProbe = () => ({ timeoutSeconds: 1 });

const admissionWebhooksNotDisabled = () => ({
  key: 'config.linkerd.io/admission-webhooks',
  operator: 'NotIn' as const,
  values: ['disabled'],
});

const webhookTLS = () => ({
  externalSecret: false,
  crtPEM: '',
  keyPEM: '',
  caBundle: '',
  injectCaFrom: '',
  injectCaFromSecret: '',
});

const http2KeepAlive = () => ({ server: { http2: { keepAliveInterval: '10s', keepAliveTimeout: '3s' } } });

const CHART_DEFAULTS: Values = deepFreeze<Values>({
  // linkerd-crds chart
  installGatewayAPI: false,

  clusterDomain: 'cluster.local',
  clusterNetworks: '10.0.0.0/8,100.64.0.0/10,172.16.0.0/12,192.168.0.0/16,fd00::/8',
  imagePullPolicy: 'IfNotPresent',
  revisionHistoryLimit: 10,
  controllerLogLevel: 'info',
  controllerLogFormat: 'plain',
  linkerdVersion: VERSION_PLACEHOLDER,
  deploymentStrategy: { rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
  enableEndpointSlices: true,
  enablePodAntiAffinity: false,
  enablePprof: false,
  enablePodDisruptionBudget: false,
  disableIPv6: true,
  controller: { podDisruptionBudget: { maxUnavailable: 1 } },
  cniEnabled: false,
  identityTrustAnchorsPEM: '',
  identityTrustDomain: '',
  kubeAPI: { clientQPS: 100, clientBurst: 200 },
  podAnnotations: {},
  podLabels: {},
  commonLabels: {},
  priorityClassName: '',
  runtimeClassName: '',

  policyController: {
    // Empty: the policy controller runs from the controller image (a name here overrides it).
    image: { name: '', pullPolicy: '', version: '' },
    logLevel: 'info',
    probeNetworks: ['0.0.0.0/0', '::/0'],
    resources: emptyResources(),
    livenessProbe: timeoutProbe(),
    readinessProbe: timeoutProbe(),
  },

  proxy: {
    enableExternalProfiles: false,
    outboundConnectTimeout: '1000ms',
    inboundConnectTimeout: '100ms',
    outboundDiscoveryCacheUnusedTimeout: '5s',
    inboundDiscoveryCacheUnusedTimeout: '90s',
    disableOutboundProtocolDetectTimeout: false,
    disableInboundProtocolDetectTimeout: false,
    // version "" means linkerdVersion; pullPolicy "" means imagePullPolicy (resolved by templates).
    image: { name: 'cr.l5d.io/linkerd/proxy', pullPolicy: '', version: '' },
    enableShutdownEndpoint: false,
    logLevel: 'warn,linkerd=info,hickory=error',
    logFormat: 'plain',
    logHTTPHeaders: 'off',
    ports: { admin: 4191, control: 4190, inbound: 4143, outbound: 4140 },
    runtime: { workers: { minimum: 1 } },
    resources: emptyResources(),
    uid: 2102,
    gid: -1,
    waitBeforeExitSeconds: 0,
    await: true,
    requireIdentityOnInboundPorts: '',
    opaquePorts: '25,587,3306,4444,5432,6379,9300,11211',
    shutdownGracePeriod: '',
    defaultInboundPolicy: 'all-unauthenticated',
    outboundTransportMode: 'transport-header',
    nativeSidecar: true,
    livenessProbe: { initialDelaySeconds: 10, timeoutSeconds: 1 },
    readinessProbe: { initialDelaySeconds: 2, timeoutSeconds: 1 },
    startupProbe: { initialDelaySeconds: 0, periodSeconds: 1, failureThreshold: 120 },
    control: { streams: { initialTimeout: '3s', idleTimeout: '5m', lifetime: '1h' } },
    inbound: http2KeepAlive(),
    outbound: http2KeepAlive(),
    metrics: { hostnameLabels: false },
    tracing: {
      enabled: false,
      traceServiceName: 'linkerd-proxy',
      collector: { endpoint: '', meshIdentity: { serviceAccountName: '', namespace: '' } },
      // Span attributes the proxy fills from its own environment (`$(_pod_…)` expanded by the kubelet).
      labels: {
        'k8s.container.name': '$(_pod_containerName)',
        'k8s.pod.ip': '$(_pod_ip)',
        'k8s.pod.uid': '$(_pod_uid)',
      },
    },
    // Fields of Go's Values.Proxy without omitempty: always written to linkerd-config, set per workload by inject.
    isGateway: false,
    isIngress: false,
  },

  proxyInit: {
    iptablesMode: 'nft',
    ignoreInboundPorts: '4567,4568',
    ignoreOutboundPorts: '4567,4568',
    kubeAPIServerPorts: '443,6443',
    skipSubnets: '',
    logLevel: '',
    logFormat: '',
    closeWaitTimeoutSecs: 0,
    privileged: false,
    runAsRoot: false,
    runAsUser: 65534,
    runAsGroup: 65534,
    xtMountPath: { mountPath: '/run', name: 'linkerd-proxy-init-xtables-lock' },
  },

  networkValidator: {
    logLevel: 'debug',
    logFormat: 'plain',
    connectAddr: '',
    listenAddr: '',
    timeout: '10s',
    enableSecurityContext: true,
    // Used verbatim as the network-validator container's securityContext while enableSecurityContext is on.
    securityContext: {
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      readOnlyRootFilesystem: true,
      runAsGroup: 65534,
      runAsNonRoot: true,
      runAsUser: 65534,
      seccompProfile: { type: 'RuntimeDefault' },
    },
  },

  imagePullSecrets: [],
  enableH2Upgrade: true,
  enablePSP: false,
  webhookFailurePolicy: 'Ignore',
  controllerImage: 'cr.l5d.io/linkerd/controller',
  controllerImageVersion: '',
  controllerReplicas: 1,
  controllerUID: 2103,
  controllerGID: -1,

  destinationController: {
    // HTTP/2 keep-alives between meshed proxies; the real chart's default, written into linkerd-config too.
    meshedHttp2ClientProtobuf: { keep_alive: { interval: { seconds: 10 }, timeout: { seconds: 3 }, while_idle: true } },
    podAnnotations: {},
    livenessProbe: timeoutProbe(),
    readinessProbe: timeoutProbe(),
  },

  debugContainer: { image: { name: 'cr.l5d.io/linkerd/debug', pullPolicy: '', version: '' } },

  identity: {
    externalCA: false,
    serviceAccountTokenProjection: true,
    issuer: {
      scheme: 'linkerd.io/tls',
      clockSkewAllowance: '20s',
      issuanceLifetime: '24h0m0s',
      tls: { crtPEM: '', keyPEM: '' },
    },
    kubeAPI: { clientQPS: 100, clientBurst: 200 },
    podAnnotations: {},
    livenessProbe: timeoutProbe(),
    readinessProbe: timeoutProbe(),
  },

  disableHeartBeat: false,

  proxyInjector: {
    timeoutSeconds: 10,
    ...webhookTLS(),
    namespaceSelector: {
      matchExpressions: [admissionWebhooksNotDisabled(), { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'cert-manager'] }],
    },
    objectSelector: {
      matchExpressions: [
        { key: 'linkerd.io/control-plane-component', operator: 'DoesNotExist' },
        { key: 'linkerd.io/cni-resource', operator: 'DoesNotExist' },
      ],
    },
    podAnnotations: {},
    livenessProbe: timeoutProbe(),
    readinessProbe: timeoutProbe(),
  },
  profileValidator: { ...webhookTLS(), namespaceSelector: { matchExpressions: [admissionWebhooksNotDisabled()] } },
  policyValidator: { ...webhookTLS(), namespaceSelector: { matchExpressions: [admissionWebhooksNotDisabled()] } },

  nodeSelector: { 'kubernetes.io/os': 'linux' },
  spValidator: { livenessProbe: timeoutProbe(), readinessProbe: timeoutProbe() },
  prometheusUrl: '',

  podMonitor: {
    enabled: false,
    scrapeInterval: '10s',
    scrapeTimeout: '10s',
    labels: {},
    controller: {
      enabled: true,
      // A template string rendered by the chart, not by us.
      namespaceSelector: 'matchNames:\n  - {{ .Release.Namespace }}\n  - linkerd-viz\n',
      honorTimestamps: true,
    },
    serviceMirror: { enabled: true, honorTimestamps: true },
    proxy: { enabled: true, honorTimestamps: true },
  },

  egress: { globalEgressNetworkNamespace: 'linkerd-egress' },

  highAvailability: false,
  cliVersion: '',
  proxyContainerName: '',
});

/**
 * The values `linkerd install` starts from (Go's `NewValues`): chart defaults with the version
 * placeholders filled in. A fresh deep copy on every call, so callers may mutate it.
 */
export function defaultValues(version: string = LINKERD_VERSION): Values {
  const v = deepClone(CHART_DEFAULTS);
  v.linkerdVersion = version;
  v.debugContainer.image.version = version;
  v.cliVersion = cliCreatedBy(version);
  v.proxyContainerName = 'linkerd-proxy';
  return v;
}

const controllerResources = (memoryRequest: string) => ({
  cpu: { limit: '', request: '100m' },
  memory: { limit: '250Mi', request: memoryRequest },
  'ephemeral-storage': { limit: '', request: '' },
});

/*
 * values-ha.yaml as the CLI sees it: Go unmarshals it into the typed Values struct, so
 * `controllerResources` and `spValidatorResources` (no struct fields) are dropped, and each
 * component's resources carry the struct's empty fields. Empty strings here only fill missing keys
 * (see mergeNonEmpty in merge.ts) because Go's mergo lets HA values win for non-empty fields only.
 */
const HA_OVERLAY: DeepPartial<Values> = deepFreeze<DeepPartial<Values>>({
  highAvailability: true,
  enablePodDisruptionBudget: true,
  deploymentStrategy: { rollingUpdate: { maxUnavailable: 1, maxSurge: '25%' } },
  enablePodAntiAffinity: true,
  proxy: { resources: { cpu: { request: '100m' }, memory: { limit: '250Mi', request: '20Mi' } } },
  controllerReplicas: 3,
  destinationResources: controllerResources('50Mi'),
  identityResources: controllerResources('10Mi'),
  heartbeatResources: controllerResources('50Mi'),
  proxyInjectorResources: controllerResources('50Mi'),
  webhookFailurePolicy: 'Fail',
});

/** The values-ha.yaml overlay merged by `--ha` (a fresh copy on every call). */
export function haOverlay(): DeepPartial<Values> {
  return deepClone(HA_OVERLAY);
}
