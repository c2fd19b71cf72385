import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { componentSelector } from './meta.js';
import { authorizationPolicy, meshTLSAuthentication, meshTLSRef, server } from './policy.js';

/** Only the dashboard (ServiceAccount `web`, over mesh TLS) may call the metrics API. */
export function metricsApiPolicy(values: VizValues, ctx: VizContext) {
  return [
    server(values, ctx, { name: 'metrics-api', component: 'metrics-api', selector: componentSelector('metrics-api'), port: 'http', proxyProtocol: 'HTTP/1' }),
    authorizationPolicy(values, ctx, 'metrics-api', 'metrics-api', [meshTLSRef('metrics-api-web')], 'metrics-api'),
    meshTLSAuthentication(values, ctx, 'metrics-api-web', 'web', 'metrics-api'),
  ];
}
