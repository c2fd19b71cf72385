import { UserError } from '../../../core/errors.js';
import type { MulticlusterValues } from './values.js';

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
