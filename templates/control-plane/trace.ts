import { UserError } from '../../src/core/errors.js';
import type { Values } from '../../src/core/values/index.js';

/*
 * Control-plane tracing: where the controllers (identity, destination) export their own spans.
 * Their proxies are traced by `proxy.tracing` like every other proxy, not by these settings.
 */

export const CONTROLLER_TRACE_ENDPOINT_REQUIRED =
  'controller.tracing.collector.endpoint or proxy.tracing.collector.endpoint must be set if control plane tracing is enabled';

/**
 * `controller.tracing.enabled`: the controller's own collector endpoint, else the proxies'. (The
 * linkerd-jaeger era `controlPlaneTracing`/`controlPlaneTracingNamespace` values are gone from this
 * release's chart; `--set` of them is refused as an unknown key.)
 */
export function traceArgs(values: Values): string[] {
  const tracing = values.controller.tracing;
  if (tracing?.enabled) {
    const endpoint = tracing.collector?.endpoint || values.proxy.tracing.collector.endpoint;
    if (!endpoint) throw new UserError(CONTROLLER_TRACE_ENDPOINT_REQUIRED);
    return [`-trace-collector=${endpoint}`];
  }
  return [];
}
