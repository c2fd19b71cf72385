import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { componentSelector } from './meta.js';
import { authorizationPolicy, server } from './policy.js';

/**
 * Prometheus's API may be queried by the metrics API only. Rendered even with
 * `prometheus.enabled: false` (it then selects nothing), as the chart does.
 */
export function prometheusPolicy(values: VizValues, ctx: VizContext) {
  return [
    server(values, ctx, { name: 'prometheus-admin', selector: componentSelector('prometheus', ctx.namespace), port: 'admin', proxyProtocol: 'HTTP/1' }),
    authorizationPolicy(values, ctx, 'prometheus-admin', 'prometheus-admin', [{ kind: 'ServiceAccount', name: 'metrics-api', namespace: ctx.namespace }]),
  ];
}
