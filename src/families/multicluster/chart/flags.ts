import { type ValueFlag, asBool, asInt, asString, invalidArgument } from '../../../core/values/chart.js';
import type { FlagValue } from '../../../core/values/chart.js';
import type { MulticlusterValues } from './values.js';

/** A value flag of the multicluster chart (no side input). */
export type InstallValueFlag = ValueFlag<MulticlusterValues>;

/** pflag's uint parsing, then the field's own range (a port is at most 65535). */
function asUint(flag: { name: string }, v: FlagValue, max: number): number {
  const n = asInt({ name: flag.name, unsigned: true }, v);
  if (n > max) throw invalidArgument(asString(v), flag, 'value out of range');
  return n;
}

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
    apply(v, x) {
      v.gateway.enabled = asBool(this, x);
    },
  },
  {
    name: 'gateway-port',
    kind: 'int',
    default: 4143,
    unsigned: true,
    goType: 'uint32',
    help: 'The port on the gateway used for all incoming traffic',
    apply(v, x) {
      v.gateway.port = asUint(this, x, 65535);
    },
  },
  {
    name: 'gateway-probe-seconds',
    kind: 'int',
    default: 3,
    unsigned: true,
    goType: 'uint32',
    help: 'The interval at which the gateway will be checked for being alive in seconds',
    apply(v, x) {
      v.gateway.probe.seconds = asUint(this, x, 0xffffffff);
    },
  },
  {
    name: 'gateway-probe-port',
    kind: 'int',
    default: 4191,
    unsigned: true,
    goType: 'uint32',
    help: 'The liveness check port of the gateway',
    apply(v, x) {
      v.gateway.probe.port = asUint(this, x, 65535);
    },
  },
  {
    name: 'service-mirror-credentials',
    kind: 'bool',
    default: true,
    help: 'Whether to install the service account which can be used by service mirror components in source clusters to discover exported services',
    apply(v, x) {
      v.remoteMirrorServiceAccount = asBool(this, x);
    },
  },
  {
    name: 'gateway-service-type',
    kind: 'string',
    default: 'LoadBalancer',
    help: 'Overwrite Service type for gateway service',
    apply(v, x) {
      v.gateway.serviceType = asString(x);
    },
  },
  {
    name: 'gateway-healthcheck-nodeport',
    kind: 'int',
    default: 0,
    unsigned: true,
    help: 'Set the healthCheckNodePort on the gateway service (only used when externalTrafficPolicy is Local)',
    apply(v, x) {
      v.gateway.healthCheckNodePort = asUint(this, x, 65535);
    },
  },
];

/** `-L`: always written into the values (even when `linkerd`), naming the gateway's identity and PSP. */
export function applyLinkerdNamespace(values: MulticlusterValues, namespace: string): void {
  values.linkerdNamespace = namespace;
}
