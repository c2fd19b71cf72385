import type { Service, ServicePort } from 'kubernetes-types/core/v1.js';
import { UserError } from '../../../core/errors.js';
import { normalizeGoDuration } from '../../../core/values/index.js';
import { type LinkVariant, linkMessages } from './messages.js';

/** What a Link says about the target's gateway, all strings as the Link CRD has them. */
export interface GatewayFields {
  gatewayAddress: string;
  gatewayPort: string;
  gatewayIdentity: string;
  probeSpec: { path: string; port: string; period: string };
}

export interface GatewayOptions {
  gatewayName: string;
  gatewayNamespace: string;
  /** `--gateway-addresses`, verbatim when given, whatever the Service's type. */
  gatewayAddresses: string;
  /** `--gateway-port`; 0 keeps the Service's. */
  gatewayPort: number;
}

/** A NodePort gateway is reached on its node ports; any other type on the Service ports. */
function exposedPort(service: Service, port: ServicePort): number {
  return service.spec?.type === 'NodePort' ? (port.nodePort ?? 0) : port.port;
}

function namedPort(service: Service, name: string): ServicePort | undefined {
  return service.spec?.ports?.find((p) => p.name === name);
}

/** No Go duration is longer; a longer annotation (a hostile target's) is refused without echoing all of it. */
const MAX_PERIOD_LENGTH = 64;

/** `3` (the chart's annotation) means seconds; anything else must be a Go duration. Written as Go prints it. */
function probePeriod(annotation: string): string {
  if (annotation.length > MAX_PERIOD_LENGTH) {
    throw new UserError(`could not parse probe period: time: invalid duration ${JSON.stringify(annotation.slice(0, MAX_PERIOD_LENGTH))}…`);
  }
  try {
    return normalizeGoDuration(/^\d+$/.test(annotation) ? `${annotation}s` : annotation);
  } catch (e) {
    throw new UserError(`could not parse probe period: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function addresses(service: Service, o: GatewayOptions, variant: LinkVariant): string {
  if (o.gatewayAddresses) return o.gatewayAddresses;
  const ingress = (service.status?.loadBalancer?.ingress ?? []).map((i) => i.ip || i.hostname || '').filter((a) => a !== '');
  if (ingress.length === 0) throw new UserError(linkMessages.noIngress(variant, o.gatewayName, o.gatewayNamespace));
  return ingress.join(',');
}

/**
 * The Link's gateway fields from the gateway Service, as link-gen derives them: address, identity,
 * probe path, port and period, gateway port. The probe's failure threshold and timeout are left
 * out, as the real command leaves them out, so the Link applies to clusters whose CRD predates
 * them (the CRD defaults them to "3" and 30s).
 */
export function gatewayFields(service: Service, o: GatewayOptions, variant: LinkVariant): GatewayFields {
  const gatewayAddress = addresses(service, o, variant);
  const annotations = service.metadata?.annotations ?? {};
  const gatewayIdentity = annotations['mirror.linkerd.io/gateway-identity'];
  if (!gatewayIdentity) throw new UserError(linkMessages.noIdentity(variant, o.gatewayName, o.gatewayNamespace));
  const path = annotations['mirror.linkerd.io/probe-path'] ?? '';
  if (!path) throw new UserError('probe path is empty');
  const probe = namedPort(service, 'mc-probe');
  if (!probe) throw new UserError('could not find port with name mc-probe');
  const period = probePeriod(annotations['mirror.linkerd.io/probe-period'] ?? '');
  const gateway = namedPort(service, 'mc-gateway');
  if (!gateway) throw new UserError(`gateway service ${o.gatewayName} has no gateway port named mc-gateway`);
  const port = o.gatewayPort || exposedPort(service, gateway);
  return {
    gatewayAddress,
    gatewayPort: String(port),
    gatewayIdentity,
    probeSpec: { path, port: String(exposedPort(service, probe)), period },
  };
}
