import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { namespacedMeta, vizLabels } from './meta.js';

/** A linkerd.io/v1alpha2 ServiceProfile with routes only (a CRD: not in kubernetes-types). */
export interface ServiceProfile {
  apiVersion: 'linkerd.io/v1alpha2';
  kind: 'ServiceProfile';
  metadata: ObjectMeta;
  spec: { routes: { name: string; condition: { method: string; pathRegex: string } }[] };
}

const route = (method: string, path: string) => ({ name: `${method} ${path}`, condition: { method, pathRegex: path } });

function profile(values: VizValues, ctx: VizContext, service: string, routes: ServiceProfile['spec']['routes']): ServiceProfile {
  return {
    apiVersion: 'linkerd.io/v1alpha2',
    kind: 'ServiceProfile',
    metadata: namespacedMeta(`${service}.${ctx.namespace}.svc.${values.clusterDomain}`, ctx.namespace, vizLabels(values)),
    spec: { routes },
  };
}

/** Per-route metrics for the metrics API and Prometheus, so `viz routes` can show viz itself. */
export function serviceProfiles(values: VizValues, ctx: VizContext): ServiceProfile[] {
  const metricsApi = ['StatSummary', 'TopRoutes', 'ListPods', 'ListServices', 'SelfCheck', 'Gateways', 'Edges'].map((m) => route('POST', `/api/v1/${m}`));
  const profiles = [profile(values, ctx, 'metrics-api', metricsApi)];
  if (values.prometheus.enabled) {
    profiles.push(profile(values, ctx, 'prometheus', [route('POST', '/api/v1/query'), route('GET', '/api/v1/query_range'), route('GET', '/api/v1/series')]));
  }
  return profiles;
}
