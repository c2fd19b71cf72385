import { UserError } from '../../../core/errors.js';
import { strconvQuote } from '../../../core/parse/strconv.js';
import { asBool, asInt, asSlice, asString, invalidArgument, type FlagValue, type SetFlag, type ValueFlag } from '../../../core/values/chart.js';
import { registryOverride } from '../../../core/values/flags.js';
import { parsePortRange } from '../../../core/values/portRanges.js';
import { DEFAULT_REGISTRY, LINKERD_VERSION } from '../../../core/version.js';
import { CNI_PLUGIN_VERSION, DEFAULT_CNI_IMAGE, type CniValues } from './values.js';

/*
 * `linkerd install-cni`'s flags, as linkerd's install-cni-plugin.go declares them, each with the
 * chart value it sets; validateCniFlags is linkerd's `validate` (version, registry, log level, port
 * ranges, with its words), run before the values are composed. `--control-port` and `--admin-port` are accepted and change nothing:
 * linkerd's CLI leaves the chart's proxyControlPort/proxyAdminPort as they are.
 */

type Flag = ValueFlag<CniValues>;

const VERSION = /^[.a-zA-Z0-9-]+$/;
const REGISTRY = /^[./a-zA-Z0-9-:]+$/;
/** logrus.ParseLevel accepts these, case-insensitively. */
const LOG_LEVELS = new Set(['panic', 'fatal', 'error', 'warn', 'warning', 'info', 'debug', 'trace']);

/** Binds `this` so an entry's `apply` can name its flag in an error, however it is called. */
function flag(f: Flag): Flag {
  return { ...f, apply: f.apply.bind(f) };
}

function portFlag(name: string, def: number, help: string, set?: (v: CniValues, port: number) => void): Flag {
  return flag({
    name,
    kind: 'int',
    unsigned: true,
    default: def,
    help,
    apply(v, x) {
      const port = asInt(this, x);
      set?.(v, port);
    },
  });
}

/** `--redirect-ports` is a pflag uint slice: each entry an unsigned integer. */
function uintList(f: Flag, value: FlagValue): string {
  const entries = asSlice(value);
  for (const e of entries) {
    if (!/^[0-9]+$/.test(e)) throw invalidArgument(asString(value), f, `strconv.ParseUint: parsing ${strconvQuote(e)}: invalid syntax`);
  }
  return entries.map((e) => String(Number(e))).join(',');
}

/** In linkerd's order of application; `--registry` comes after `--cni-image` because it rewrites that image's name. */
export const CNI_FLAGS: readonly Flag[] = [
  flag({
    name: 'linkerd-version',
    short: 'v',
    kind: 'string',
    default: LINKERD_VERSION,
    help: 'Tag to be used for Linkerd images',
    // Checked by validateCniFlags, and otherwise unused, as in linkerd.
    apply() {},
  }),
  flag({
    name: 'cni-log-level',
    kind: 'string',
    default: 'info',
    help: 'Log level for the cni-plugin',
    apply(v, x) {
      v.logLevel = asString(x);
    },
  }),
  flag({
    name: 'proxy-uid',
    kind: 'int',
    default: 2102,
    help: 'Run the proxy under this user ID',
    apply(v, x) {
      v.proxyUID = asInt(this, x);
    },
  }),
  flag({
    name: 'proxy-gid',
    kind: 'int',
    default: -1,
    help: 'Run the proxy under this group ID',
    apply(v, x) {
      v.proxyGID = asInt(this, x);
    },
  }),
  portFlag('inbound-port', 4143, 'Proxy port to use for inbound traffic', (v, p) => (v.inboundProxyPort = p)),
  portFlag('outbound-port', 4140, 'Proxy port to use for outbound traffic', (v, p) => (v.outboundProxyPort = p)),
  portFlag('control-port', 4190, 'Proxy port to use for control'),
  portFlag('admin-port', 4191, 'Proxy port to serve metrics on'),
  flag({
    name: 'skip-inbound-ports',
    kind: 'stringSlice',
    default: [],
    help: 'Ports and/or port ranges (inclusive) that should skip the proxy and send directly to the application',
    apply(v, x) {
      v.ignoreInboundPorts = asSlice(x).join(',');
    },
  }),
  flag({
    name: 'skip-outbound-ports',
    kind: 'stringSlice',
    default: [],
    help: 'Outbound ports and/or port ranges (inclusive) that should skip the proxy',
    apply(v, x) {
      v.ignoreOutboundPorts = asSlice(x).join(',');
    },
  }),
  flag({
    name: 'redirect-ports',
    kind: 'stringSlice',
    unsigned: true,
    default: [],
    help: 'Ports to redirect to proxy, if no port is specified then ALL ports are redirected',
    apply(v, x) {
      v.portsToRedirect = uintList(this, x);
    },
  }),
  flag({
    name: 'cni-image',
    kind: 'string',
    default: DEFAULT_CNI_IMAGE,
    help: 'Image for the cni-plugin',
    apply(v, x) {
      v.image.name = asString(x);
    },
  }),
  flag({
    name: 'cni-image-version',
    kind: 'string',
    default: CNI_PLUGIN_VERSION,
    help: 'Image Version for the cni-plugin',
    apply(v, x) {
      v.image.version = asString(x);
    },
  }),
  flag({
    name: 'dest-cni-net-dir',
    kind: 'string',
    default: '/etc/cni/net.d',
    help: 'Directory on the host where the CNI configuration will be placed',
    apply(v, x) {
      v.destCNINetDir = asString(x);
    },
  }),
  flag({
    name: 'dest-cni-bin-dir',
    kind: 'string',
    default: '/opt/cni/bin',
    help: 'Directory on the host where the CNI binary will be placed',
    apply(v, x) {
      v.destCNIBinDir = asString(x);
    },
  }),
  flag({
    name: 'priority-class-name',
    kind: 'string',
    default: '',
    help: "Pod priorityClassName for CNI daemonset's pods",
    apply(v, x) {
      v.priorityClassName = asString(x);
    },
  }),
  flag({
    name: 'use-wait-flag',
    kind: 'bool',
    default: false,
    help: 'Configures the CNI plugin to use the "-w" flag for the iptables command. (default false)',
    apply(v, x) {
      v.useWaitFlag = asBool(this, x);
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
      // linkerd keeps --cni-image verbatim unless the registry differs from its default.
      if (registry !== DEFAULT_REGISTRY) v.image.name = registryOverride(v.image.name, registry);
    },
  }),
];

/**
 * linkerd's `validate`, in its order and words, on the flags the user set (the defaults pass):
 * version, registry, log level, then each entry of the skip-port lists (a port or an inclusive range).
 */
export function validateCniFlags(set: readonly SetFlag[]): void {
  const value = (name: string) => set.find((f) => f.name === name)?.value;
  const version = value('linkerd-version');
  if (version !== undefined && !VERSION.test(asString(version))) throw new UserError(`${asString(version)} is not a valid version`);
  const registry = value('registry');
  if (registry !== undefined && !REGISTRY.test(asString(registry))) {
    throw new UserError(`${asString(registry)} is not a valid Docker registry. The url can contain only letters, numbers, dash, dot, slash and colon`);
  }
  const level = value('cni-log-level');
  if (level !== undefined && !LOG_LEVELS.has(asString(level).toLowerCase())) {
    throw new UserError('--cni-log-level must be one of: panic, fatal, error, warn, info, debug, trace');
  }
  for (const name of ['skip-inbound-ports', 'skip-outbound-ports']) {
    const list = value(name);
    if (list !== undefined) for (const entry of asSlice(list)) parsePortRange(entry);
  }
}
