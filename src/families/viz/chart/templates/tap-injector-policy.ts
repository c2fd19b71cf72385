import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { componentSelector } from './meta.js';
import { anyNetwork, authorizationPolicy, networkRef, server } from './policy.js';

/** The API server calls the tap-injector webhook; `kube-api-server` is the network tap's policy also names. */
export function tapInjectorPolicy(values: VizValues, ctx: VizContext) {
  return [
    server(values, ctx, {
      name: 'tap-injector-webhook',
      component: 'tap-injector',
      selector: componentSelector('tap-injector'),
      port: 'tap-injector',
      proxyProtocol: 'TLS',
    }),
    authorizationPolicy(values, ctx, 'tap-injector', 'tap-injector-webhook', [networkRef('kube-api-server')], 'tap-injector'),
    anyNetwork(values, ctx, 'kube-api-server'),
  ];
}
