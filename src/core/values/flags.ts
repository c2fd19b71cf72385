import { UserError } from '../errors.js';
import { readPemFile } from '../files/readPemFile.js';
import { DEFAULT_REGISTRY } from '../version.js';
import type { ValueFlag as ChartValueFlag } from './chart.js';
import { haOverlay } from './defaults.js';
import { type FlagValue, asBool, asDuration, asInt, asSlice, asString } from './flagValues.js';
import { mergeNonEmpty } from './merge.js';
import { wholeCPUCores } from './quantity.js';
import type { Values } from './schema.js';

/*
 * THE table of the control-plane chart's value flags: install/upgrade/inject flags that change
 * values (cli/cmd/options.go). Each entry says how it parses, its default and help text, and how it
 * changes the values; the entries come in named sets (CONTROL_PLANE_FLAG_SETS) a command asks for.
 * Only flags the user set are applied, in table order — linkerd's ApplySetFlags — so `--ha` (early
 * in installUpgrade) merges the HA overlay before `--controller-replicas` or the proxy resource
 * flags override it.
 */

export { splitSliceArg } from './flagValues.js';
export type { FlagKind, FlagValue } from './flagValues.js';
export type { SetFlag } from './chart.js';

/** Side inputs some flags need; the PKI module supplies the PEM normalisers. */
export interface FlagContext {
  /** Reads the identity file flags; defaults to the local file system. */
  readFile?: (path: string) => string;
  /** Keeps only the leaf certificate of the issuer file (Go re-encodes just the first cert). */
  issuerCertificatePEM?: (pem: string) => string;
  /** Re-encodes the issuer key with PEM type `EC PRIVATE KEY`. */
  issuerKeyPEM?: (pem: string) => string;
}

/** A flag of the control-plane chart. */
export type ValueFlag = ChartValueFlag<Values, FlagContext>;

/**
 * Replaces the registry part of an image name, keeping its last path segment
 * (`cr.l5d.io/linkerd/proxy` + `my.reg/l5d` → `my.reg/l5d/proxy`), like linkerd's registryOverride.
 */
export function registryOverride(image: string, registry: string): string {
  if (image === '') return image;
  const prefix = registry !== '' && !registry.endsWith('/') ? `${registry}/` : registry;
  return prefix + image.slice(image.lastIndexOf('/') + 1);
}

// ---- the table ----

type FlagSpec = Omit<ValueFlag, 'apply'> & {
  apply(this: ValueFlag, values: Values, value: FlagValue, ctx: FlagContext): void;
};

/** Binds `this` (used for error messages) so `apply` also works when detached from its entry. */
function flag(spec: FlagSpec): ValueFlag {
  const entry: ValueFlag = Object.freeze({
    ...spec,
    apply: (values: Values, value: FlagValue, ctx: FlagContext = {}) => spec.apply.call(entry, values, value, ctx),
  });
  return entry;
}

/** Flags only install has: what upgrade cannot change. */
const installOnly: readonly ValueFlag[] = [
  flag({
    name: 'cluster-domain',
    kind: 'string',
    default: 'cluster.local',
    help: 'Set custom cluster domain',
    apply(v, x) {
      v.clusterDomain = asString(x);
    },
  }),
  flag({
    name: 'identity-trust-domain',
    kind: 'string',
    default: '',
    help: 'Configures the name suffix used for identities.',
    apply(v, x) {
      v.identityTrustDomain = asString(x);
    },
  }),
  flag({
    name: 'identity-external-issuer',
    kind: 'bool',
    default: false,
    help: 'Whether to use an external identity issuer (default false)',
    apply(v, x) {
      v.identity.issuer.scheme = asBool(this, x) ? 'kubernetes.io/tls' : 'linkerd.io/tls';
    },
  }),
  flag({
    name: 'identity-external-ca',
    kind: 'bool',
    default: false,
    help: 'Whether to use an external CA provider (default false)',
    apply(v, x) {
      v.identity.externalCA = asBool(this, x);
    },
  }),
];

/** Flags install and upgrade share. */
const installUpgrade: readonly ValueFlag[] = [
  flag({
    name: 'linkerd-cni-enabled',
    kind: 'bool',
    default: false,
    help: 'Omit the NET_ADMIN capability in the PSP and the proxy-init container when injecting the proxy; requires the linkerd-cni plugin to already be installed',
    apply(v, x) {
      v.cniEnabled = asBool(this, x);
    },
  }),
  flag({
    name: 'controller-log-level',
    kind: 'string',
    default: 'info',
    help: 'Log level for the controller and web components',
    apply(v, x) {
      v.controllerLogLevel = asString(x);
    },
  }),
  flag({
    name: 'ha',
    kind: 'bool',
    default: false,
    help: 'Enable HA deployment config for the control plane (default false)',
    apply(v, x) {
      const ha = asBool(this, x);
      if (ha) Object.assign(v, mergeNonEmpty(v, haOverlay()));
      v.highAvailability = ha;
    },
  }),
  flag({
    name: 'controller-replicas',
    kind: 'int',
    unsigned: true,
    default: 1,
    help: 'Replicas of the controller to deploy',
    apply(v, x) {
      v.controllerReplicas = asInt(this, x);
    },
  }),
  flag({
    name: 'controller-uid',
    kind: 'int',
    default: 2103,
    help: 'Run the control plane components under this user ID',
    apply(v, x) {
      v.controllerUID = asInt(this, x);
    },
  }),
  flag({
    name: 'controller-gid',
    kind: 'int',
    default: -1,
    help: 'Run the control plane components under this group ID',
    apply(v, x) {
      v.controllerGID = asInt(this, x);
    },
  }),
  flag({
    name: 'disable-h2-upgrade',
    kind: 'bool',
    default: false,
    help: 'Prevents the controller from instructing proxies to perform transparent HTTP/2 upgrading (default false)',
    apply(v, x) {
      v.enableH2Upgrade = !asBool(this, x);
    },
  }),
  flag({
    name: 'disable-heartbeat',
    kind: 'bool',
    default: false,
    help: 'Disables the heartbeat cronjob (default false)',
    apply(v, x) {
      v.disableHeartBeat = asBool(this, x);
    },
  }),
  flag({
    name: 'identity-issuance-lifetime',
    kind: 'duration',
    default: '24h0m0s',
    help: 'The amount of time for which the Identity issuer should certify identity',
    apply(v, x) {
      v.identity.issuer.issuanceLifetime = asDuration(this, x);
    },
  }),
  flag({
    name: 'identity-clock-skew-allowance',
    kind: 'duration',
    default: '20s',
    help: 'The amount of time to allow for clock skew within a Linkerd cluster',
    apply(v, x) {
      v.identity.issuer.clockSkewAllowance = asDuration(this, x);
    },
  }),
  flag({
    name: 'identity-issuer-certificate-file',
    kind: 'string',
    default: '',
    help: 'A path to a PEM-encoded file containing the Linkerd Identity issuer certificate (generated by default)',
    apply(v, x, c) {
      const pem = (c.readFile ?? readPemFile)(asString(x));
      v.identity.issuer.tls.crtPEM = c.issuerCertificatePEM ? c.issuerCertificatePEM(pem) : pem;
    },
  }),
  flag({
    name: 'identity-issuer-key-file',
    kind: 'string',
    default: '',
    help: 'A path to a PEM-encoded file containing the Linkerd Identity issuer private key (generated by default)',
    apply(v, x, c) {
      const pem = (c.readFile ?? readPemFile)(asString(x));
      v.identity.issuer.tls.keyPEM = c.issuerKeyPEM ? c.issuerKeyPEM(pem) : pem;
    },
  }),
  flag({
    name: 'identity-trust-anchors-file',
    kind: 'string',
    default: '',
    help: 'A path to a PEM-encoded file containing Linkerd Identity trust anchors (generated by default)',
    apply(v, x, c) {
      v.identityTrustAnchorsPEM = (c.readFile ?? readPemFile)(asString(x));
    },
  }),
  flag({
    name: 'enable-endpoint-slices',
    kind: 'bool',
    default: true,
    help: 'Enables the usage of EndpointSlice informers and resources for destination service',
    apply(v, x) {
      v.enableEndpointSlices = asBool(this, x);
    },
  }),
];

/** Proxy flags: install, upgrade and inject. */
const proxy: readonly ValueFlag[] = [
  flag({
    name: 'proxy-image',
    kind: 'string',
    default: 'cr.l5d.io/linkerd/proxy',
    hiddenInRelease: true,
    help: 'Linkerd proxy container image name',
    apply(v, x) {
      v.proxy.image.name = asString(x);
    },
  }),
  flag({
    name: 'image-pull-policy',
    kind: 'string',
    default: 'IfNotPresent',
    hiddenInRelease: true,
    help: 'Docker image pull policy',
    apply(v, x) {
      const policy = asString(x);
      v.imagePullPolicy = policy;
      v.proxy.image.pullPolicy = policy;
      v.debugContainer.image.pullPolicy = policy;
    },
  }),
  flag({
    name: 'inbound-port',
    kind: 'int',
    unsigned: true,
    default: 4143,
    help: 'Proxy port to use for inbound traffic',
    apply(v, x) {
      v.proxy.ports.inbound = asInt(this, x);
    },
  }),
  flag({
    name: 'outbound-port',
    kind: 'int',
    unsigned: true,
    default: 4140,
    help: 'Proxy port to use for outbound traffic',
    apply(v, x) {
      v.proxy.ports.outbound = asInt(this, x);
    },
  }),
  flag({
    name: 'skip-inbound-ports',
    kind: 'stringSlice',
    default: [],
    help: 'Ports and/or port ranges (inclusive) that should skip the proxy and send directly to the application',
    // Replaces the default `4567,4568` rather than extending it.
    apply(v, x) {
      v.proxyInit.ignoreInboundPorts = asSlice(x).join(',');
    },
  }),
  flag({
    name: 'skip-outbound-ports',
    kind: 'stringSlice',
    default: [],
    help: 'Outbound ports and/or port ranges (inclusive) that should skip the proxy',
    apply(v, x) {
      v.proxyInit.ignoreOutboundPorts = asSlice(x).join(',');
    },
  }),
  flag({
    name: 'proxy-uid',
    kind: 'int',
    default: 2102,
    help: 'Run the proxy under this user ID',
    apply(v, x) {
      v.proxy.uid = asInt(this, x);
    },
  }),
  flag({
    name: 'proxy-gid',
    kind: 'int',
    default: -1,
    help: 'Run the proxy under this group ID',
    apply(v, x) {
      v.proxy.gid = asInt(this, x);
    },
  }),
  flag({
    name: 'proxy-log-level',
    kind: 'string',
    default: 'warn,linkerd=info,hickory=error',
    help: 'Log level for the proxy',
    apply(v, x) {
      v.proxy.logLevel = asString(x);
    },
  }),
  flag({
    name: 'control-port',
    kind: 'int',
    unsigned: true,
    default: 4190,
    help: 'Proxy port to use for control',
    apply(v, x) {
      v.proxy.ports.control = asInt(this, x);
    },
  }),
  flag({
    name: 'admin-port',
    kind: 'int',
    unsigned: true,
    default: 4191,
    help: 'Proxy port to serve metrics on',
    apply(v, x) {
      v.proxy.ports.admin = asInt(this, x);
    },
  }),
  flag({
    name: 'proxy-cpu-request',
    kind: 'string',
    default: '',
    help: 'Amount of CPU units that the proxy sidecar requests',
    apply(v, x) {
      const q = asString(x);
      // The proxy runtime sizes its worker pool from whole cores (`1500m` → 2 workers minimum).
      v.proxy.runtime.workers.minimum = wholeCPUCores(q);
      v.proxy.resources.cpu.request = q;
    },
  }),
  flag({
    name: 'proxy-cpu-limit',
    kind: 'string',
    default: '',
    help: 'Maximum amount of CPU units that the proxy sidecar can use',
    apply(v, x) {
      const q = asString(x);
      v.proxy.runtime.workers.maximum = wholeCPUCores(q);
      v.proxy.resources.cpu.limit = q;
    },
  }),
  flag({
    name: 'proxy-memory-request',
    kind: 'string',
    default: '',
    help: 'Amount of Memory that the proxy sidecar requests',
    apply(v, x) {
      v.proxy.resources.memory.request = asString(x);
    },
  }),
  flag({
    name: 'proxy-memory-limit',
    kind: 'string',
    default: '',
    help: 'Maximum amount of Memory that the proxy sidecar can use',
    apply(v, x) {
      v.proxy.resources.memory.limit = asString(x);
    },
  }),
  flag({
    name: 'enable-external-profiles',
    kind: 'bool',
    default: false,
    help: 'Enable service profiles for non-Kubernetes services',
    apply(v, x) {
      v.proxy.enableExternalProfiles = asBool(this, x);
    },
  }),
  flag({
    name: 'default-inbound-policy',
    kind: 'string',
    default: 'all-unauthenticated',
    help: 'Inbound policy to use to control inbound access to the proxy',
    apply(v, x) {
      v.proxy.defaultInboundPolicy = asString(x);
    },
  }),
  flag({
    name: 'proxy-memory',
    kind: 'string',
    default: '',
    deprecated: 'use --proxy-memory-request instead',
    help: 'Amount of Memory that the proxy sidecar requests',
    apply(v, x) {
      v.proxy.resources.memory.request = asString(x);
    },
  }),
  flag({
    name: 'proxy-cpu',
    kind: 'string',
    default: '',
    deprecated: 'use --proxy-cpu-request instead',
    help: 'Amount of CPU units that the proxy sidecar requests',
    // Unlike --proxy-cpu-request, the deprecated flag never touched the worker count.
    apply(v, x) {
      v.proxy.resources.cpu.request = asString(x);
    },
  }),
  flag({
    name: 'proxy-version',
    short: 'v',
    kind: 'string',
    default: '',
    hiddenInRelease: true,
    deprecated: 'use --set proxy.image.version=<version> instead',
    help: 'Tag to be used for the Linkerd proxy images',
    apply(v, x) {
      v.proxy.image.version = asString(x);
    },
  }),
  flag({
    name: 'registry',
    kind: 'string',
    default: DEFAULT_REGISTRY,
    env: 'LINKERD_DOCKER_REGISTRY',
    help: 'Docker registry to pull images from ($LINKERD_DOCKER_REGISTRY)',
    apply(v, x) {
      const registry = asString(x);
      v.controllerImage = registryOverride(v.controllerImage, registry);
      v.policyController.image.name = registryOverride(v.policyController.image.name, registry);
      v.debugContainer.image.name = registryOverride(v.debugContainer.image.name, registry);
      v.proxy.image.name = registryOverride(v.proxy.image.name, registry);
    },
  }),
];

/** Flags only inject has. */
const inject: readonly ValueFlag[] = [
  flag({
    name: 'native-sidecar',
    kind: 'bool',
    default: false,
    help: 'Run the proxy as a native sidecar (first in initContainers, restartPolicy Always), as the chart does by default; --native-sidecar=false puts it in containers instead. With --manual this shapes the pod spec, otherwise it sets the proxy-enable-native-sidecar annotation',
    // The flag defaults to false while the chart value defaults to true: only an explicit
    // `--native-sidecar=false` changes anything.
    apply(v, x) {
      v.proxy.nativeSidecar = asBool(this, x);
    },
  }),
  flag({
    name: 'wait-before-exit-seconds',
    kind: 'int',
    unsigned: true,
    default: 0,
    help: 'The period during which the proxy sidecar must stay alive while its pod is terminating. Must be smaller than terminationGracePeriodSeconds for the pod (default 0)',
    apply(v, x) {
      v.proxy.waitBeforeExitSeconds = asInt(this, x);
    },
  }),
  flag({
    name: 'disable-identity',
    kind: 'bool',
    default: false,
    hidden: true,
    help: 'Disables resources from participating in TLS identity',
    apply() {
      throw new UserError('--disable-identity is no longer supported; identity is always required');
    },
  }),
  flag({
    name: 'require-identity-on-inbound-ports',
    kind: 'stringSlice',
    default: [''],
    help: 'Inbound ports on which the proxy should require identity',
    apply(v, x) {
      v.proxy.requireIdentityOnInboundPorts = asSlice(x).join(',');
    },
  }),
  flag({
    name: 'ingress',
    kind: 'bool',
    default: false,
    help: 'Enable ingress mode in the linkerd proxy',
    apply(v, x) {
      v.proxy.isIngress = asBool(this, x);
    },
  }),
  flag({
    name: 'opaque-ports',
    kind: 'stringSlice',
    default: ['25', '587', '3306', '4444', '5432', '6379', '9300', '11211'],
    help: 'Set opaque ports on the proxy',
    apply(v, x) {
      v.proxy.opaquePorts = asSlice(x).join(',');
    },
  }),
];

/**
 * The control-plane chart's flag sets, named as linkerd's install.go names them; install offers
 * installOnly + installUpgrade + proxy, upgrade installUpgrade + proxy, inject proxy + inject.
 */
export const CONTROL_PLANE_FLAG_SETS = { installOnly, installUpgrade, proxy, inject } as const;
export type ControlPlaneFlagSet = keyof typeof CONTROL_PLANE_FLAG_SETS;

/** Every flag of the table, in the order they apply. */
export const VALUE_FLAGS: readonly ValueFlag[] = Object.freeze([...installOnly, ...installUpgrade, ...proxy, ...inject]);

const BY_NAME: ReadonlyMap<string, number> = new Map(VALUE_FLAGS.map((f, i) => [f.name, i]));

/** The table entry for a long flag name (without dashes). */
export function valueFlag(name: string): ValueFlag | undefined {
  const i = BY_NAME.get(name);
  return i === undefined ? undefined : VALUE_FLAGS[i];
}
