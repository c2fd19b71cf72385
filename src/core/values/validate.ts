import { isIPv4, isIPv6 } from 'node:net';
import { UserError } from '../errors.js';
import { parsePortRanges } from './portRanges.js';
import { isQuantity, milliValue, wholeValue } from './quantity.js';
import type { Values } from './schema.js';

/*
 * linkerd's install/upgrade value checks (validateValues + validateProxyValues), in linkerd's order and
 * with its exact messages; the first failing rule throws. Not here: the issuer-credential checks (PKI
 * module) and the EndpointSlice check (needs a cluster).
 */

export { parseQuantity } from './quantity.js';
export { parsePortRanges, parsePortRange } from './portRanges.js';
export type { PortRange } from './portRanges.js';

const VERSION = /^[.a-zA-Z0-9-]+$/;

/** logrus.ParseLevel accepts these, case-insensitively. */
const LOGRUS_LEVELS = new Set(['panic', 'fatal', 'error', 'warn', 'warning', 'info', 'debug', 'trace']);

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];

export const INBOUND_POLICIES = ['all-authenticated', 'all-unauthenticated', 'cluster-authenticated', 'cluster-unauthenticated', 'deny', 'audit'] as const;

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** k8s IsDNS1123Subdomain's first error, or undefined. */
export function dns1123SubdomainError(value: string): string | undefined {
  if (value.length > 253) return 'must be no more than 253 characters';
  if (!DNS1123_SUBDOMAIN.test(value)) {
    return "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  }
  return undefined;
}

/** Go's net.ParseCIDR acceptance: an IPv4 or IPv6 address (no zone) and a decimal prefix within range. */
export function isCIDR(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const addr = s.slice(0, slash);
  const prefix = s.slice(slash + 1);
  if (!/^[0-9]+$/.test(prefix)) return false;
  const bits = isIPv4(addr) ? 32 : !addr.includes('%') && isIPv6(addr) ? 128 : 0;
  return bits > 0 && Number(prefix) <= bits;
}

/**
 * env_logger directives (`warn,linkerd=info,hickory=error`, `linkerd2_proxy::api=debug`): comma-separated
 * module paths and/or levels; a trailing comma is tolerated, as by linkerd's regex.
 */
export function isValidProxyLogLevel(level: string): boolean {
  const directives = level.split(',');
  if (directives.length > 1 && directives[directives.length - 1] === '') directives.pop();
  return directives.every((d) => /^(?:\w|::)+(?:=(?:trace|debug|warn|info|error|off))?$/.test(d));
}

type Rule = (v: Values) => string | undefined;

function checkQuantity(q: string, what: string, flag: string): string | undefined {
  return q !== '' && !isQuantity(q) ? `Invalid ${what} '${q}' for ${flag} flag` : undefined;
}

/** Limit ≥ request for one proxy resource; cpu compares in millicores, memory in bytes. */
function limitAtLeastRequest(resource: 'cpu' | 'memory', value: (q: string) => number): Rule {
  return (v) => {
    const { limit, request } = v.proxy.resources[resource];
    if (limit === '') return undefined;
    const bad = checkQuantity(limit, `${resource} limit`, `--proxy-${resource}-limit`);
    if (bad) return bad;
    const requested = isQuantity(request) ? value(request) : 0;
    return requested > value(limit) ? `The ${resource} limit '${limit}' cannot be lower than the ${resource} request '${request}'` : undefined;
  };
}

function firstPortError(list: string): string | undefined {
  try {
    parsePortRanges(list);
    return undefined;
  } catch (e) {
    if (e instanceof UserError) return e.message;
    throw e;
  }
}

/** The rules, in the order linkerd evaluates them. */
const RULES: readonly Rule[] = [
  (v) => (VERSION.test(v.linkerdVersion) ? undefined : `${v.linkerdVersion} is not a valid version`),
  (v) =>
    LOGRUS_LEVELS.has(v.controllerLogLevel.toLowerCase()) ? undefined : '--controller-log-level must be one of: panic, fatal, error, warn, info, debug, trace',
  (v) => (v.proxy.logLevel === '' ? '--proxy-log-level must not be empty' : undefined),
  (v) => {
    const d = v.identityTrustDomain;
    const err = d === '' ? undefined : dns1123SubdomainError(d);
    return err === undefined ? undefined : `invalid trust domain '${d}': ${err}`;
  },
  (v) => {
    const bad = v.clusterNetworks.split(',').find((n) => !isCIDR(n));
    return bad === undefined ? undefined : `cannot parse destination get networks: invalid CIDR address: ${bad}`;
  },
  (v) => {
    const ver = v.proxy.image.version;
    return ver !== '' && !VERSION.test(ver) ? `${ver} is not a valid version` : undefined;
  },
  (v) => (PULL_POLICIES.includes(v.imagePullPolicy) ? undefined : '--image-pull-policy must be one of: Always, IfNotPresent, Never'),
  (v) => checkQuantity(v.proxy.resources.cpu.request, 'cpu request', '--proxy-cpu-request'),
  (v) => checkQuantity(v.proxy.resources.memory.request, 'memory request', '--proxy-memory-request'),
  limitAtLeastRequest('cpu', milliValue),
  limitAtLeastRequest('memory', wholeValue),
  (v) =>
    isValidProxyLogLevel(v.proxy.logLevel)
      ? undefined
      : `"${v.proxy.logLevel}" is not a valid proxy log level - for allowed syntax check https://docs.rs/env_logger/0.6.0/env_logger/#enabling-logging`,
  (v) => firstPortError(v.proxyInit.ignoreInboundPorts),
  (v) => firstPortError(v.proxyInit.ignoreOutboundPorts),
  (v) =>
    (INBOUND_POLICIES as readonly string[]).includes(v.proxy.defaultInboundPolicy)
      ? undefined
      : `--default-inbound-policy must be one of: ${INBOUND_POLICIES.join(', ')} (got ${v.proxy.defaultInboundPolicy})`,
];

/** Every problem, in linkerd's order (the first is what install reports). */
export function installValueProblems(values: Values): string[] {
  return RULES.map((rule) => rule(values)).filter((m): m is string => m !== undefined);
}

/** Throws UserError with linkerd's message for the first rule the values break. */
export function validateInstallValues(values: Values): void {
  for (const rule of RULES) {
    const problem = rule(values);
    if (problem !== undefined) throw new UserError(problem);
  }
}
