import * as z from 'zod';
import { UserError } from '../errors.js';
import { goBool } from '../parse/strconv.js';
import { parseGoDuration } from '../parse/goDuration.js';
import { parsePortRanges } from '../values/portRanges.js';
import { isQuantity, wholeCPUCores } from '../parse/quantity.js';
import type { Values } from '../values/schema.js';
import { INBOUND_POLICIES, isCIDR, isValidProxyLogLevel } from '../values/validate.js';
import { INJECT_ANNOTATION, INJECT_ENABLED, INJECT_INGRESS } from '../mesh/names.js';

/*
 * THE annotation table (linkerd's getOverrideAnnotations and the annotations the injector reads): each row ties one pod annotation to the values it stands for and
 * to the flags that set those values. It is read in both directions:
 *   - flags → annotations: after the flags change the values, every row whose value now differs
 *     from the base values (the cluster's, or the defaults) yields one override annotation;
 *   - annotations → values: when `--manual` renders the proxy, annotations already on the workload
 *     (and on its namespace) override the values, as the proxy injector would apply them.
 * A bad annotation value is ignored with a warning, never fatal, like the injector.
 */

export const DEBUG_SIDECAR_ANNOTATION = 'config.linkerd.io/enable-debug-sidecar';
export const CLOSE_WAIT_ANNOTATION = 'config.linkerd.io/close-wait-timeout';

export interface AnnotationRow {
  readonly key: string;
  /** Older keys read when `key` is absent (the stable key wins). */
  readonly aliases?: readonly string[];
  /** Long names of the flags that write this annotation (none for annotation-only settings). */
  readonly flags: readonly string[];
  /** The annotation value the values stand for; undefined for rows flags never write. */
  readonly get?: (v: Values) => string;
  /** Whether a change from `base` is written as an override (default: the value differs). */
  readonly emit?: (v: Values, base: Values) => boolean;
  /** Applies an annotation value to the values; throws UserError (its message) when invalid. */
  readonly read: (v: Values, value: string) => void;
}

// ---- value parsers; each throws UserError with the reason ----

const invalid = (why: string) => new UserError(why);

function port(s: string): number {
  if (!/^[0-9]+$/.test(s) || Number(s) > 65535) throw invalid('not a port number');
  return Number(s);
}

function int(s: string): number {
  if (!/^[-+]?[0-9]+$/.test(s) || !Number.isSafeInteger(Number(s))) throw invalid('not an integer');
  return Number(s);
}

function uint(s: string): number {
  if (!/^[0-9]+$/.test(s) || !Number.isSafeInteger(Number(s))) throw invalid('not a non-negative integer');
  return Number(s);
}

function bool(s: string): boolean {
  const b = goBool(s);
  if (!b.ok) throw invalid('not a boolean');
  return b.value;
}

function enabled(s: string): boolean {
  if (s === 'enabled') return true;
  if (s === 'disabled') return false;
  throw invalid('must be "enabled" or "disabled"');
}

function ports(s: string): string {
  parsePortRanges(s);
  return s;
}

function quantity(s: string): string {
  if (!isQuantity(s)) throw invalid('not a resource quantity');
  return s;
}

function oneOf(allowed: readonly string[]) {
  return (s: string): string => {
    if (!allowed.includes(s)) throw invalid(`must be one of: ${allowed.join(', ')}`);
    return s;
  };
}

function nanos(s: string): bigint {
  const ns = parseGoDuration(s);
  if (ns < 0n) throw invalid('must not be negative');
  return ns;
}

const ms = (s: string) => `${nanos(s) / 1_000_000n}ms`;
const secs = (s: string) => `${nanos(s) / 1_000_000_000n}s`;

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];

/** `config.linkerd.io/proxy-env`: a JSON list of container environment variables. */
const EnvList = z.array(z.looseObject({ name: z.string(), value: z.string().optional(), valueFrom: z.record(z.string(), z.unknown()).optional() }));

function envList(s: string): Array<{ name: string; value?: string; valueFrom?: Record<string, unknown> }> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(s);
  } catch {
    throw invalid('not a JSON list of environment variables');
  }
  const list = EnvList.safeParse(parsed);
  if (!list.success) throw invalid('not a JSON list of environment variables');
  return list.data;
}

/** Merges env vars by name: later definitions replace earlier ones in place. */
function mergeEnv<T extends { name: string }>(base: readonly T[], extra: readonly T[]): T[] {
  const out = [...base];
  for (const e of extra) {
    const i = out.findIndex((x) => x.name === e.name);
    if (i >= 0) out[i] = e;
    else out.push(e);
  }
  return out;
}

const str = (get: (v: Values) => string, set: (v: Values, s: string) => void, check: (s: string) => string = (s) => s) => ({
  get,
  read: (v: Values, s: string) => set(v, check(s)),
});

const portRow = (name: 'admin' | 'control' | 'inbound' | 'outbound', flag: string): AnnotationRow => ({
  key: `config.linkerd.io/${name}-port`,
  flags: [flag],
  get: (v) => String(v.proxy.ports[name]),
  read: (v, s) => {
    v.proxy.ports[name] = port(s);
  },
});

const resourceRow = (kind: 'cpu' | 'memory' | 'ephemeral-storage', which: 'request' | 'limit', flags: string[]): AnnotationRow => ({
  key: `config.linkerd.io/proxy-${kind}-${which}`,
  flags,
  get: kind === 'ephemeral-storage' ? undefined : (v) => v.proxy.resources[kind][which],
  read: (v, s) => {
    v.proxy.resources[kind][which] = quantity(s);
    // The proxy sizes its worker pool from whole cores, as the injector does for these annotations.
    if (kind === 'cpu' && which === 'request') v.proxy.runtime.workers.minimum = wholeCPUCores(s);
    if (kind === 'cpu' && which === 'limit') v.proxy.runtime.workers.maximum = wholeCPUCores(s);
  },
});

export const ANNOTATIONS: readonly AnnotationRow[] = [
  {
    key: 'config.linkerd.io/proxy-version',
    flags: ['proxy-version'],
    ...str(
      (v) => v.proxy.image.version,
      (v, s) => {
        v.proxy.image.version = s;
      },
    ),
  },
  {
    key: 'config.linkerd.io/skip-inbound-ports',
    flags: ['skip-inbound-ports'],
    ...str(
      (v) => v.proxyInit.ignoreInboundPorts,
      (v, s) => {
        v.proxyInit.ignoreInboundPorts = s;
      },
      ports,
    ),
  },
  {
    key: 'config.linkerd.io/skip-outbound-ports',
    flags: ['skip-outbound-ports'],
    ...str(
      (v) => v.proxyInit.ignoreOutboundPorts,
      (v, s) => {
        v.proxyInit.ignoreOutboundPorts = s;
      },
      ports,
    ),
  },
  portRow('admin', 'admin-port'),
  portRow('control', 'control-port'),
  portRow('inbound', 'inbound-port'),
  portRow('outbound', 'outbound-port'),
  {
    key: 'config.linkerd.io/opaque-ports',
    flags: ['opaque-ports'],
    ...str(
      (v) => v.proxy.opaquePorts,
      (v, s) => {
        v.proxy.opaquePorts = s;
      },
      ports,
    ),
  },
  {
    key: 'config.linkerd.io/proxy-image',
    flags: ['proxy-image', 'registry'],
    ...str(
      (v) => v.proxy.image.name,
      (v, s) => {
        v.proxy.image.name = s;
      },
    ),
  },
  {
    key: 'config.linkerd.io/debug-image',
    flags: ['registry'],
    ...str(
      (v) => v.debugContainer.image.name,
      (v, s) => {
        v.debugContainer.image.name = s;
      },
    ),
  },
  {
    key: 'config.linkerd.io/debug-image-version',
    flags: [],
    ...str(
      (v) => v.debugContainer.image.version,
      (v, s) => {
        v.debugContainer.image.version = s;
      },
    ),
  },
  {
    key: 'config.linkerd.io/image-pull-policy',
    flags: ['image-pull-policy'],
    ...str(
      (v) => v.proxy.image.pullPolicy,
      (v, s) => {
        v.proxy.image.pullPolicy = s;
      },
      oneOf(PULL_POLICIES),
    ),
  },
  {
    key: 'config.linkerd.io/proxy-uid',
    flags: ['proxy-uid'],
    get: (v) => String(v.proxy.uid),
    read: (v, s) => {
      v.proxy.uid = int(s);
    },
  },
  {
    key: 'config.linkerd.io/proxy-gid',
    flags: ['proxy-gid'],
    get: (v) => String(v.proxy.gid),
    // -1 means "do not set runAsGroup"; it is never written as an annotation.
    emit: (v, base) => v.proxy.gid >= 0 && v.proxy.gid !== base.proxy.gid,
    read: (v, s) => {
      v.proxy.gid = int(s);
    },
  },
  {
    key: 'config.linkerd.io/proxy-log-level',
    flags: ['proxy-log-level'],
    ...str(
      (v) => v.proxy.logLevel,
      (v, s) => {
        v.proxy.logLevel = s;
      },
      (s) => {
        if (!isValidProxyLogLevel(s)) throw invalid('not a valid proxy log level');
        return s;
      },
    ),
  },
  {
    key: 'config.linkerd.io/proxy-log-format',
    flags: [],
    ...str(
      (v) => v.proxy.logFormat,
      (v, s) => {
        v.proxy.logFormat = s;
      },
      oneOf(['plain', 'json']),
    ),
  },
  {
    key: 'config.linkerd.io/proxy-require-identity-inbound-ports',
    flags: ['require-identity-on-inbound-ports'],
    ...str(
      (v) => v.proxy.requireIdentityOnInboundPorts,
      (v, s) => {
        v.proxy.requireIdentityOnInboundPorts = s;
      },
      ports,
    ),
  },
  {
    key: 'config.linkerd.io/enable-external-profiles',
    flags: ['enable-external-profiles'],
    get: (v) => String(v.proxy.enableExternalProfiles),
    read: (v, s) => {
      v.proxy.enableExternalProfiles = bool(s);
    },
  },
  {
    key: 'config.linkerd.io/proxy-metrics-hostname-labels',
    flags: [],
    get: (v) => String(v.proxy.metrics.hostnameLabels),
    read: (v, s) => {
      v.proxy.metrics.hostnameLabels = bool(s);
    },
  },
  {
    // --ingress is written as the inject annotation's value, not as a config annotation.
    key: INJECT_ANNOTATION,
    flags: ['ingress'],
    get: (v) => (v.proxy.isIngress ? INJECT_INGRESS : INJECT_ENABLED),
    emit: (v, base) => Boolean(v.proxy.isIngress) !== Boolean(base.proxy.isIngress),
    read: (v, s) => {
      if (s === INJECT_INGRESS) v.proxy.isIngress = true;
    },
  },
  resourceRow('cpu', 'request', ['proxy-cpu-request', 'proxy-cpu']),
  resourceRow('cpu', 'limit', ['proxy-cpu-limit']),
  resourceRow('memory', 'request', ['proxy-memory-request', 'proxy-memory']),
  resourceRow('memory', 'limit', ['proxy-memory-limit']),
  resourceRow('ephemeral-storage', 'request', []),
  resourceRow('ephemeral-storage', 'limit', []),
  {
    key: 'config.alpha.linkerd.io/proxy-wait-before-exit-seconds',
    flags: ['wait-before-exit-seconds'],
    get: (v) => String(v.proxy.waitBeforeExitSeconds),
    read: (v, s) => {
      v.proxy.waitBeforeExitSeconds = uint(s);
    },
  },
  {
    key: 'config.linkerd.io/proxy-await',
    flags: [],
    get: (v) => (v.proxy.await ? 'enabled' : 'disabled'),
    read: (v, s) => {
      v.proxy.await = enabled(s);
    },
  },
  {
    key: 'config.linkerd.io/default-inbound-policy',
    flags: ['default-inbound-policy'],
    ...str(
      (v) => v.proxy.defaultInboundPolicy,
      (v, s) => {
        v.proxy.defaultInboundPolicy = s;
      },
      oneOf(INBOUND_POLICIES),
    ),
  },
  {
    key: 'config.linkerd.io/access-log',
    flags: [],
    ...str(
      (v) => v.proxy.accessLog ?? '',
      (v, s) => {
        v.proxy.accessLog = s;
      },
      oneOf(['apache', 'json']),
    ),
  },
  {
    key: 'config.linkerd.io/shutdown-grace-period',
    flags: [],
    ...str(
      (v) => v.proxy.shutdownGracePeriod,
      (v, s) => {
        v.proxy.shutdownGracePeriod = s;
      },
      (s) => {
        nanos(s);
        return s;
      },
    ),
  },
  {
    key: 'config.linkerd.io/proxy-enable-native-sidecar',
    aliases: ['config.beta.linkerd.io/proxy-enable-native-sidecar', 'config.alpha.linkerd.io/proxy-enable-native-sidecar'],
    flags: ['native-sidecar'],
    get: (v) => String(v.proxy.nativeSidecar),
    read: (v, s) => {
      v.proxy.nativeSidecar = bool(s);
    },
  },

  // Annotation-only settings (no flag writes them).
  {
    key: 'config.linkerd.io/pod-inbound-ports',
    flags: [],
    read: (v, s) => {
      v.proxy.podInboundPorts = ports(s);
    },
  },
  {
    key: 'config.linkerd.io/proxy-admin-shutdown',
    flags: [],
    read: (v, s) => {
      v.proxy.enableShutdownEndpoint = enabled(s);
    },
  },
  {
    key: 'config.linkerd.io/proxy-log-http-headers',
    flags: [],
    read: (v, s) => {
      v.proxy.logHTTPHeaders = oneOf(['off', 'insecure'])(s) as 'off' | 'insecure';
    },
  },
  {
    key: 'config.linkerd.io/proxy-outbound-connect-timeout',
    flags: [],
    read: (v, s) => {
      v.proxy.outboundConnectTimeout = ms(s);
    },
  },
  {
    key: 'config.linkerd.io/proxy-inbound-connect-timeout',
    flags: [],
    read: (v, s) => {
      v.proxy.inboundConnectTimeout = ms(s);
    },
  },
  {
    key: 'config.linkerd.io/proxy-outbound-discovery-cache-unused-timeout',
    flags: [],
    read: (v, s) => {
      v.proxy.outboundDiscoveryCacheUnusedTimeout = secs(s);
    },
  },
  {
    key: 'config.linkerd.io/proxy-inbound-discovery-cache-unused-timeout',
    flags: [],
    read: (v, s) => {
      v.proxy.inboundDiscoveryCacheUnusedTimeout = secs(s);
    },
  },
  {
    key: 'config.linkerd.io/proxy-disable-outbound-protocol-detect-timeout',
    flags: [],
    read: (v, s) => {
      v.proxy.disableOutboundProtocolDetectTimeout = bool(s);
    },
  },
  {
    key: 'config.linkerd.io/proxy-disable-inbound-protocol-detect-timeout',
    flags: [],
    read: (v, s) => {
      v.proxy.disableInboundProtocolDetectTimeout = bool(s);
    },
  },
  {
    key: 'config.linkerd.io/enable-gateway',
    flags: [],
    read: (v, s) => {
      v.proxy.isGateway = bool(s);
    },
  },
  {
    key: 'config.linkerd.io/proxy-cpu-ratio-limit',
    flags: [],
    read: (v, s) => {
      const r = Number(s);
      if (!/^[0-9.]+$/.test(s) || !(r > 0 && r <= 1)) throw invalid('must be a number greater than 0 and at most 1');
      v.proxy.runtime.workers.maximumCPURatio = r;
    },
  },
  {
    key: 'config.linkerd.io/skip-subnets',
    flags: [],
    read: (v, s) => {
      const bad = s.split(',').find((n) => !isCIDR(n.trim()));
      if (bad !== undefined) throw invalid(`${JSON.stringify(bad)} is not a valid CIDR`);
      v.proxyInit.skipSubnets = s;
    },
  },
  {
    key: 'config.linkerd.io/debug-image-pull-policy',
    flags: [],
    read: (v, s) => {
      v.debugContainer.image.pullPolicy = oneOf(PULL_POLICIES)(s);
    },
  },
  {
    key: 'config.linkerd.io/proxy-additional-env',
    flags: [],
    read: (v, s) => {
      v.proxy.additionalEnv = mergeEnv(v.proxy.additionalEnv ?? [], envList(s));
    },
  },
  {
    key: CLOSE_WAIT_ANNOTATION,
    flags: ['close-wait-timeout'],
    read: (v, s) => {
      v.proxyInit.closeWaitTimeoutSecs = Number(nanos(s) / 1_000_000_000n);
    },
  },
];

/** Override annotations (key → value) for the values that flags changed relative to `base`. */
export function overrideAnnotations(values: Values, base: Values): Map<string, string> {
  const out = new Map<string, string>();
  for (const row of ANNOTATIONS) {
    if (!row.get) continue;
    const changed = row.emit ? row.emit(values, base) : row.get(values) !== row.get(base);
    if (changed) out.set(row.key, row.get(values));
  }
  return out;
}

export interface AnnotationProblem {
  key: string;
  value: string;
  reason: string;
}

/** The value an annotation set holds for a row, its stable key first. */
export function annotationValue(row: AnnotationRow, annotations: Readonly<Record<string, string>>): { key: string; value: string } | undefined {
  for (const key of [row.key, ...(row.aliases ?? [])]) {
    const value = Object.prototype.hasOwnProperty.call(annotations, key) ? annotations[key] : undefined;
    if (value !== undefined) return { key, value };
  }
  return undefined;
}

/**
 * Applies the recognised annotations to `values` (in place), skipping the keys in `skip`.
 * Invalid values are left out and returned as problems.
 */
export function applyAnnotations(values: Values, annotations: Readonly<Record<string, string>>, skip: ReadonlySet<string> = new Set()): AnnotationProblem[] {
  const problems: AnnotationProblem[] = [];
  for (const row of ANNOTATIONS) {
    if (skip.has(row.key)) continue;
    const found = annotationValue(row, annotations);
    if (!found) continue;
    try {
      row.read(values, found.value);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      problems.push({ key: found.key, value: found.value, reason: e.message });
    }
  }
  return problems;
}

const KNOWN_KEYS = new Set(ANNOTATIONS.flatMap((r) => [r.key, ...(r.aliases ?? [])]));

/** Whether any annotation of the set is one the table reads. */
export function hasRecognisedAnnotations(annotations: Readonly<Record<string, string>>): boolean {
  for (const k in annotations) if (KNOWN_KEYS.has(k)) return true;
  return false;
}

export function annotationRow(key: string): AnnotationRow | undefined {
  return ANNOTATIONS.find((r) => r.key === key || r.aliases?.includes(key));
}
