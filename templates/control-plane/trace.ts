import type { Values } from '../../src/core/values/index.js';

/** `controlPlaneTracing`: the controllers export spans to the linkerd-jaeger collector. */
export function traceArgs(values: Values): string[] {
  if (!values.controlPlaneTracing) return [];
  return [`-trace-collector=collector.${values.controlPlaneTracingNamespace}.svc.${values.clusterDomain}:55678`];
}
