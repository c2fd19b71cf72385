import type { ResourceRequirements } from 'kubernetes-types/core/v1.js';

/** The chart's `{cpu,memory,ephemeral-storage}.{request,limit}` shape. */
export interface ChartResources {
  cpu?: { request?: string; limit?: string };
  memory?: { request?: string; limit?: string };
  'ephemeral-storage'?: { request?: string; limit?: string };
}

/** Kubernetes requirements holding only the non-empty entries; undefined when nothing is set. */
export function resourceRequirements(r: ChartResources | undefined): ResourceRequirements | undefined {
  if (!r) return undefined;
  const limits: Record<string, string> = {};
  const requests: Record<string, string> = {};
  for (const key of ['cpu', 'memory', 'ephemeral-storage'] as const) {
    if (r[key]?.limit) limits[key] = r[key].limit;
    if (r[key]?.request) requests[key] = r[key].request;
  }
  const out: ResourceRequirements = {};
  if (Object.keys(limits).length) out.limits = limits;
  if (Object.keys(requests).length) out.requests = requests;
  return Object.keys(out).length ? out : undefined;
}
