import type { Service, ServicePort } from 'kubernetes-types/core/v1.js';
import type { Values } from '../../src/core/values/index.js';
import type { ControlPlaneContext } from './context.js';
import { type Component, componentLabels, createdByAnnotation, namespacedMeta } from './metadata.js';
import { CONTROL_PLANE_COMPONENT_LABEL } from '../../src/core/mesh/names.js';

/*
 * The control-plane Services. Headless ones (`clusterIP: None`) let proxies resolve every
 * replica; the webhook ones map 443 onto the container port name the API server calls.
 */

function service(
  name: string,
  values: Values,
  ctx: ControlPlaneContext,
  component: Component,
  port: ServicePort,
  opts: { headless?: boolean; annotations?: Record<string, string> } = {},
): Service {
  const spec: Service['spec'] = opts.headless ? { clusterIP: 'None' } : { type: 'ClusterIP' };
  spec.selector = { [CONTROL_PLANE_COMPONENT_LABEL]: component };
  spec.ports = [port];
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: namespacedMeta(name, ctx, componentLabels(values, ctx, component), { ...createdByAnnotation(values, ctx), ...opts.annotations }),
    spec,
  };
}

const grpc = (port: number): ServicePort => ({ name: 'grpc', port, targetPort: port });

/** `linkerd-identity` and `linkerd-identity-headless` (8080, gRPC). */
export function identityServices(values: Values, ctx: ControlPlaneContext): Service[] {
  return [
    service('linkerd-identity', values, ctx, 'identity', grpc(8080)),
    service('linkerd-identity-headless', values, ctx, 'identity', grpc(8080), { headless: true }),
  ];
}

/** Destination (8086), its headless twin, the ServiceProfile validator, policy (8090, headless) and the policy validator. */
export function destinationServices(values: Values, ctx: ControlPlaneContext): Service[] {
  return [
    service('linkerd-dst', values, ctx, 'destination', grpc(8086)),
    service('linkerd-dst-headless', values, ctx, 'destination', grpc(8086), { headless: true }),
    service('linkerd-sp-validator', values, ctx, 'destination', { name: 'sp-validator', port: 443, targetPort: 'sp-validator' }),
    service('linkerd-policy', values, ctx, 'destination', grpc(8090), { headless: true }),
    service('linkerd-policy-validator', values, ctx, 'destination', { name: 'policy-https', port: 443, targetPort: 'policy-https' }),
  ];
}

/** The injector's Service; 443 is opaque so meshed API-server traffic is not protocol-detected. */
export function proxyInjectorService(values: Values, ctx: ControlPlaneContext): Service {
  return service(
    'linkerd-proxy-injector',
    values,
    ctx,
    'proxy-injector',
    { name: 'proxy-injector', port: 443, targetPort: 'proxy-injector' },
    {
      annotations: { 'config.linkerd.io/opaque-ports': '443' },
    },
  );
}
