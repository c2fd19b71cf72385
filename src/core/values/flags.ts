import { UserError } from '../errors.js';
import { readTextFileBounded } from '../input/boundedRead.js';
import { PEM_LIMIT } from '../input/limits.js';
import { DEFAULT_REGISTRY, LINKERD_VERSION } from '../version.js';
import { haOverlay } from './defaults.js';
import { normalizeGoDuration } from './duration.js';
import { mergeNonEmpty } from './merge.js';
import { wholeCPUCores } from './quantity.js';
import type { Values } from './schema.js';
import { deepClone } from './tree.js';

/*
 * THE table of install/upgrade/inject flags that change values (cli/cmd/options.go). Each entry says
 * which group it belongs to, how it parses, its default and help text, and how it changes the values.
 * Only flags the user set are applied, in table order — linkerd's ApplySetFlags — so `--ha` (early in
 * group B) merges the HA overlay before `--controller-replicas` or the proxy resource flags override it.
 */

/** A: install only; B: install + upgrade; C: proxy flags (install, upgrade, inject); D: inject only. */
export type FlagGroup = 'A' | 'B' | 'C' | 'D';
export type FlagKind = 'string' | 'bool' | 'int' | 'duration' | 'stringSlice';
export type FlagValue = string | boolean | number | readonly string[];
export type ValueCommand = 'install' | 'upgrade' | 'inject';

export const GROUP_COMMANDS: Readonly<Record<FlagGroup, readonly ValueCommand[]>> = {
  A: ['install'],
  B: ['install', 'upgrade'],
  C: ['install', 'upgrade', 'inject'],
  D: ['inject'],
};

/** Side inputs some flags need; the PKI module supplies the PEM normalisers. */
export interface FlagContext {
  /** Reads the identity file flags; defaults to the local file system. */
  readFile?: (path: string) => string;
  /** Keeps only the leaf certificate of the issuer file (Go re-encodes just the first cert). */
  issuerCertificatePEM?: (pem: string) => string;
  /** Re-encodes the issuer key with PEM type `EC PRIVATE KEY`. */
  issuerKeyPEM?: (pem: string) => string;
}

export interface ValueFlag {
  readonly name: string;
  readonly short?: string;
  readonly group: FlagGroup;
  readonly kind: FlagKind;
  readonly default: FlagValue;
  readonly help: string;
  /** Never shown in help. */
  readonly hidden?: boolean;
  /** Hidden in release builds (edge/stable versions), shown in dev builds. */
  readonly hiddenInRelease?: boolean;
  /** pflag's deprecation note, printed as `Flag --<name> has been deprecated, <note>`. */
  readonly deprecated?: string;
  /** Environment variable that presets the flag as if the user had set it. */
  readonly env?: string;
  /** Rejects negative numbers (Go uint flags). */
  readonly unsigned?: boolean;
  /** Changes `values` in place; throws UserError on a bad value. */
  apply(values: Values, value: FlagValue, ctx?: FlagContext): void;
}

export interface SetFlag {
  readonly name: string;
  readonly value: FlagValue;
}

// ---- value coercion (commander hands us strings; tests and callers may pass typed values) ----

function invalidArgument(flag: ValueFlag, value: unknown, reason: string): UserError {
  return new UserError(`invalid argument ${JSON.stringify(String(value))} for "--${flag.name}" flag: ${reason}`);
}

function asString(v: FlagValue): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return v.join(',');
}

const BOOL_WORDS: Readonly<Record<string, boolean>> = {
  '1': true,
  t: true,
  T: true,
  TRUE: true,
  true: true,
  True: true,
  '0': false,
  f: false,
  F: false,
  FALSE: false,
  false: false,
  False: false,
};

/** strconv.ParseBool's accepted spellings, or undefined. */
export function parseGoBool(s: string): boolean | undefined {
  return Object.prototype.hasOwnProperty.call(BOOL_WORDS, s) ? BOOL_WORDS[s] : undefined;
}

function asBool(flag: ValueFlag, v: FlagValue): boolean {
  if (typeof v === 'boolean') return v;
  const b = parseGoBool(asString(v));
  if (b === undefined) throw invalidArgument(flag, v, `strconv.ParseBool: parsing ${JSON.stringify(String(v))}: invalid syntax`);
  return b;
}

function asInt(flag: ValueFlag, v: FlagValue): number {
  const fn = flag.unsigned ? 'strconv.ParseUint' : 'strconv.ParseInt';
  const text = asString(v);
  const ok = flag.unsigned ? /^[0-9]+$/ : /^[+-]?[0-9]+$/;
  if (!ok.test(text)) throw invalidArgument(flag, v, `${fn}: parsing ${JSON.stringify(text)}: invalid syntax`);
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw invalidArgument(flag, v, `${fn}: parsing ${JSON.stringify(text)}: value out of range`);
  return n === 0 ? 0 : n;
}

function asDuration(flag: ValueFlag, v: FlagValue): string {
  const text = asString(v);
  try {
    return normalizeGoDuration(text);
  } catch (e) {
    if (e instanceof UserError) throw invalidArgument(flag, text, e.message);
    throw e;
  }
}

/** pflag string slices: comma-separated, repeated flags append; `""` is the empty list. */
export function splitSliceArg(value: string): string[] {
  return value === '' ? [] : value.split(',');
}

function asSlice(v: FlagValue): string[] {
  if (Array.isArray(v)) return [...(v as readonly string[])];
  return splitSliceArg(asString(v));
}

function defaultReadFile(path: string): string {
  return readTextFileBounded(path, PEM_LIMIT);
}

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

export const VALUE_FLAGS: readonly ValueFlag[] = Object.freeze([
  // A. install only
  flag({
    name: 'cluster-domain',
    group: 'A',
    kind: 'string',
    default: 'cluster.local',
    help: 'Set custom cluster domain',
    apply(v, x) {
      v.clusterDomain = asString(x);
    },
  }),
  flag({
    name: 'identity-trust-domain',
    group: 'A',
    kind: 'string',
    default: '',
    help: 'Configures the name suffix used for identities.',
    apply(v, x) {
      v.identityTrustDomain = asString(x);
    },
  }),
  flag({
    name: 'identity-external-issuer',
    group: 'A',
    kind: 'bool',
    default: false,
    help: 'Whether to use an external identity issuer (default false)',
    apply(v, x) {
      v.identity.issuer.scheme = asBool(this, x) ? 'kubernetes.io/tls' : 'linkerd.io/tls';
    },
  }),
  flag({
    name: 'identity-external-ca',
    group: 'A',
    kind: 'bool',
    default: false,
    help: 'Whether to use an external CA provider (default false)',
    apply(v, x) {
      v.identity.externalCA = asBool(this, x);
    },
  }),

  // B. install + upgrade
  flag({
    name: 'linkerd-cni-enabled',
    group: 'B',
    kind: 'bool',
    default: false,
    help: 'Omit the NET_ADMIN capability in the PSP and the proxy-init container when injecting the proxy; requires the linkerd-cni plugin to already be installed',
    apply(v, x) {
      v.cniEnabled = asBool(this, x);
    },
  }),
  flag({
    name: 'controller-log-level',
    group: 'B',
    kind: 'string',
    default: 'info',
    help: 'Log level for the controller and web components',
    apply(v, x) {
      v.controllerLogLevel = asString(x);
    },
  }),
  flag({
    name: 'ha',
    group: 'B',
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
    group: 'B',
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
    group: 'B',
    kind: 'int',
    default: 2103,
    help: 'Run the control plane components under this user ID',
    apply(v, x) {
      v.controllerUID = asInt(this, x);
    },
  }),
  flag({
    name: 'controller-gid',
    group: 'B',
    kind: 'int',
    default: -1,
    help: 'Run the control plane components under this group ID',
    apply(v, x) {
      v.controllerGID = asInt(this, x);
    },
  }),
  flag({
    name: 'disable-h2-upgrade',
    group: 'B',
    kind: 'bool',
    default: false,
    help: 'Prevents the controller from instructing proxies to perform transparent HTTP/2 upgrading (default false)',
    apply(v, x) {
      v.enableH2Upgrade = !asBool(this, x);
    },
  }),
  flag({
    name: 'disable-heartbeat',
    group: 'B',
    kind: 'bool',
    default: false,
    help: 'Disables the heartbeat cronjob (default false)',
    apply(v, x) {
      v.disableHeartBeat = asBool(this, x);
    },
  }),
  flag({
    name: 'identity-issuance-lifetime',
    group: 'B',
    kind: 'duration',
    default: '24h0m0s',
    help: 'The amount of time for which the Identity issuer should certify identity',
    apply(v, x) {
      v.identity.issuer.issuanceLifetime = asDuration(this, x);
    },
  }),
  flag({
    name: 'identity-clock-skew-allowance',
    group: 'B',
    kind: 'duration',
    default: '20s',
    help: 'The amount of time to allow for clock skew within a Linkerd cluster',
    apply(v, x) {
      v.identity.issuer.clockSkewAllowance = asDuration(this, x);
    },
  }),
  flag({
    name: 'identity-issuer-certificate-file',
    group: 'B',
    kind: 'string',
    default: '',
    help: 'A path to a PEM-encoded file containing the Linkerd Identity issuer certificate (generated by default)',
    apply(v, x, c) {
      const pem = (c.readFile ?? defaultReadFile)(asString(x));
      v.identity.issuer.tls.crtPEM = c.issuerCertificatePEM ? c.issuerCertificatePEM(pem) : pem;
    },
  }),
  flag({
    name: 'identity-issuer-key-file',
    group: 'B',
    kind: 'string',
    default: '',
    help: 'A path to a PEM-encoded file containing the Linkerd Identity issuer private key (generated by default)',
    apply(v, x, c) {
      const pem = (c.readFile ?? defaultReadFile)(asString(x));
      v.identity.issuer.tls.keyPEM = c.issuerKeyPEM ? c.issuerKeyPEM(pem) : pem;
    },
  }),
  flag({
    name: 'identity-trust-anchors-file',
    group: 'B',
    kind: 'string',
    default: '',
    help: 'A path to a PEM-encoded file containing Linkerd Identity trust anchors (generated by default)',
    apply(v, x, c) {
      v.identityTrustAnchorsPEM = (c.readFile ?? defaultReadFile)(asString(x));
    },
  }),
  flag({
    name: 'enable-endpoint-slices',
    group: 'B',
    kind: 'bool',
    default: true,
    help: 'Enables the usage of EndpointSlice informers and resources for destination service',
    apply(v, x) {
      v.enableEndpointSlices = asBool(this, x);
    },
  }),

  // C. proxy flags (install, upgrade, inject)
  flag({
    name: 'proxy-image',
    group: 'C',
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
    group: 'C',
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
    group: 'C',
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
    group: 'C',
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
    group: 'C',
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
    group: 'C',
    kind: 'stringSlice',
    default: [],
    help: 'Outbound ports and/or port ranges (inclusive) that should skip the proxy',
    apply(v, x) {
      v.proxyInit.ignoreOutboundPorts = asSlice(x).join(',');
    },
  }),
  flag({
    name: 'proxy-uid',
    group: 'C',
    kind: 'int',
    default: 2102,
    help: 'Run the proxy under this user ID',
    apply(v, x) {
      v.proxy.uid = asInt(this, x);
    },
  }),
  flag({
    name: 'proxy-gid',
    group: 'C',
    kind: 'int',
    default: -1,
    help: 'Run the proxy under this group ID',
    apply(v, x) {
      v.proxy.gid = asInt(this, x);
    },
  }),
  flag({
    name: 'proxy-log-level',
    group: 'C',
    kind: 'string',
    default: 'warn,linkerd=info,hickory=error',
    help: 'Log level for the proxy',
    apply(v, x) {
      v.proxy.logLevel = asString(x);
    },
  }),
  flag({
    name: 'control-port',
    group: 'C',
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
    group: 'C',
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
    group: 'C',
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
    group: 'C',
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
    group: 'C',
    kind: 'string',
    default: '',
    help: 'Amount of Memory that the proxy sidecar requests',
    apply(v, x) {
      v.proxy.resources.memory.request = asString(x);
    },
  }),
  flag({
    name: 'proxy-memory-limit',
    group: 'C',
    kind: 'string',
    default: '',
    help: 'Maximum amount of Memory that the proxy sidecar can use',
    apply(v, x) {
      v.proxy.resources.memory.limit = asString(x);
    },
  }),
  flag({
    name: 'enable-external-profiles',
    group: 'C',
    kind: 'bool',
    default: false,
    help: 'Enable service profiles for non-Kubernetes services',
    apply(v, x) {
      v.proxy.enableExternalProfiles = asBool(this, x);
    },
  }),
  flag({
    name: 'default-inbound-policy',
    group: 'C',
    kind: 'string',
    default: 'all-unauthenticated',
    help: 'Inbound policy to use to control inbound access to the proxy',
    apply(v, x) {
      v.proxy.defaultInboundPolicy = asString(x);
    },
  }),
  flag({
    name: 'proxy-memory',
    group: 'C',
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
    group: 'C',
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
    group: 'C',
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
    group: 'C',
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

  // D. inject only
  flag({
    name: 'native-sidecar',
    group: 'D',
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
    group: 'D',
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
    group: 'D',
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
    group: 'D',
    kind: 'stringSlice',
    default: [''],
    help: 'Inbound ports on which the proxy should require identity',
    apply(v, x) {
      v.proxy.requireIdentityOnInboundPorts = asSlice(x).join(',');
    },
  }),
  flag({
    name: 'ingress',
    group: 'D',
    kind: 'bool',
    default: false,
    help: 'Enable ingress mode in the linkerd proxy',
    apply(v, x) {
      v.proxy.isIngress = asBool(this, x);
    },
  }),
  flag({
    name: 'opaque-ports',
    group: 'D',
    kind: 'stringSlice',
    default: ['25', '587', '3306', '4444', '5432', '6379', '9300', '11211'],
    help: 'Set opaque ports on the proxy',
    apply(v, x) {
      v.proxy.opaquePorts = asSlice(x).join(',');
    },
  }),
]);

const BY_NAME: ReadonlyMap<string, number> = new Map(VALUE_FLAGS.map((f, i) => [f.name, i]));

/** The table entry for a long flag name (without dashes). */
export function valueFlag(name: string): ValueFlag | undefined {
  const i = BY_NAME.get(name);
  return i === undefined ? undefined : VALUE_FLAGS[i];
}

/** The flags of the given groups, in table order. */
export function flagsOf(groups: readonly FlagGroup[]): ValueFlag[] {
  return VALUE_FLAGS.filter((f) => groups.includes(f.group));
}

/** The flags a command has (install: A+B+C, upgrade: B+C, inject: C+D). */
export function flagsFor(command: ValueCommand): ValueFlag[] {
  return VALUE_FLAGS.filter((f) => GROUP_COMMANDS[f.group].includes(command));
}

/**
 * Applies explicitly set flags to a copy of `values`, in table order whatever the order given
 * (linkerd's ApplySetFlags). Unknown names are a programming error.
 */
export function applyFlags(values: Values, setFlags: readonly SetFlag[], ctx: FlagContext = {}): Values {
  const out = deepClone(values);
  const ordered = setFlags
    .map((f) => {
      const index = BY_NAME.get(f.name);
      const flag = index === undefined ? undefined : VALUE_FLAGS[index];
      if (index === undefined || flag === undefined) throw new Error(`applyFlags: --${f.name} is not a values flag`);
      return { index, flag, value: f.value };
    })
    .sort((a, b) => a.index - b.index);
  for (const { flag, value } of ordered) {
    try {
      flag.apply(out, value, ctx);
    } catch (e) {
      // A bad value names the flag the user typed, as pflag does; file flags' errors name the file, as linkerd's do.
      if (e instanceof UserError && !e.message.startsWith('invalid argument ') && !flag.name.endsWith('-file')) throw invalidArgument(flag, value, e.message);
      throw e;
    }
  }
  return out;
}

/**
 * The first of `setFlags` (in table order) after whose application `isValid` fails, so a schema
 * error caused by a flag (`--inbound-port 70000`) can name that flag rather than a values path.
 */
export function firstInvalidFlag(values: Values, setFlags: readonly SetFlag[], isValid: (v: Values) => boolean, ctx: FlagContext = {}): SetFlag | undefined {
  const ordered = [...setFlags].sort((a, b) => (BY_NAME.get(a.name) ?? 0) - (BY_NAME.get(b.name) ?? 0));
  for (let n = 1; n <= ordered.length; n++) {
    if (!isValid(applyFlags(values, ordered.slice(0, n), ctx))) return ordered[n - 1];
  }
  return undefined;
}

/** pflag's `invalid argument "<value>" for "--<flag>" flag: <reason>`. */
export function invalidFlagValue(set: SetFlag, reason: string): UserError {
  const flag = valueFlag(set.name);
  if (flag === undefined) return new UserError(reason);
  return invalidArgument(flag, Array.isArray(set.value) ? set.value.join(',') : set.value, reason);
}

/** pflag's warnings for deprecated flags the user set. */
export function deprecationWarnings(setFlags: readonly SetFlag[]): string[] {
  return setFlags.flatMap((s) => {
    const f = valueFlag(s.name);
    return f?.deprecated ? [`Flag --${f.name} has been deprecated, ${f.deprecated}`] : [];
  });
}

/** Release builds (edge/stable) hide development flags, like the Go CLI. */
export function isReleaseVersion(version: string = LINKERD_VERSION): boolean {
  return /^(edge|stable)-/.test(version);
}
