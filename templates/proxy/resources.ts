import type { ResourceRequirements } from 'kubernetes-types/core/v1.js';

/** A request and a limit; Helm reads an empty `limit:` as null. */
export interface ChartConstraint {
  request?: string | null;
  limit?: string | null;
}

/** The chart's `{cpu,memory,ephemeral-storage}.{request,limit}` shape. */
export interface ChartResources {
  cpu?: ChartConstraint | null;
  memory?: ChartConstraint | null;
  'ephemeral-storage'?: ChartConstraint | null;
}

/** Kubernetes requirements holding only the non-empty entries; undefined when nothing is set. */
export function resourceRequirements(r: ChartResources | null | undefined): ResourceRequirements | undefined {
  if (!r) return undefined;
  const limits: Record<string, string> = {};
  const requests: Record<string, string> = {};
  for (const key of ['cpu', 'memory', 'ephemeral-storage'] as const) {
    const { limit, request } = r[key] ?? {};
    if (limit) limits[key] = limit;
    if (request) requests[key] = request;
  }
  const out: ResourceRequirements = {};
  if (Object.keys(limits).length) out.limits = limits;
  if (Object.keys(requests).length) out.requests = requests;
  return Object.keys(out).length ? out : undefined;
}

/**
 * The charts' `partials.proxy.config.annotations`: an extension's `<component>.proxy.resources` as
 * the `config.linkerd.io/proxy-<resource>-<request|limit>` annotations the injector reads, so the
 * proxy injected into that component gets them. Requests before limits, empty entries left out.
 */
export function proxyResourceAnnotations(r: ChartResources | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!r) return out;
  for (const key of ['cpu', 'memory', 'ephemeral-storage'] as const) {
    const { request, limit } = r[key] ?? {};
    if (request) out[`config.linkerd.io/proxy-${key}-request`] = request;
    if (limit) out[`config.linkerd.io/proxy-${key}-limit`] = limit;
  }
  return out;
}
