import { UserError } from '../../src/core/errors.js';
import type { Values } from '../../src/core/values/index.js';

/*
 * Control-plane tracing: where the controllers (identity, destination) export their own spans.
 * Their proxies are traced by `proxy.tracing` like every other proxy, not by these settings.
 */

export const CONTROLLER_TRACE_ENDPOINT_REQUIRED =
  'controller.tracing.collector.endpoint or proxy.tracing.collector.endpoint must be set if control plane tracing is enabled';

/**
 * `controller.tracing.enabled` (edge-25.10.1 and later): the controller's own collector endpoint, else
 * the proxies'. The older `controlPlaneTracing` switch, from the linkerd-jaeger days, still points
 * at that extension's collector when `controller.tracing` is off.
 */
export function traceArgs(values: Values): string[] {
  const tracing = values.controller.tracing;
  if (tracing?.enabled) {
    const endpoint = tracing.collector?.endpoint || values.proxy.tracing.collector.endpoint;
    if (!endpoint) throw new UserError(CONTROLLER_TRACE_ENDPOINT_REQUIRED);
    return [`-trace-collector=${endpoint}`];
  }
  if (!values.controlPlaneTracing) return [];
  return [`-trace-collector=collector.${values.controlPlaneTracingNamespace}.svc.${values.clusterDomain}:55678`];
}
