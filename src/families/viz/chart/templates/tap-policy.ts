import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { componentSelector } from './meta.js';
import { authorizationPolicy, networkRef, server } from './policy.js';

/** The API server (an unmeshed client on any address) calls tap's aggregated API over TLS. */
export function tapPolicy(values: VizValues, ctx: VizContext) {
  return [
    server(values, ctx, { name: 'tap-api', component: 'tap', selector: componentSelector('tap'), port: 'apiserver', proxyProtocol: 'TLS' }),
    authorizationPolicy(values, ctx, 'tap', 'tap-api', [networkRef('kube-api-server')], 'tap'),
  ];
}
