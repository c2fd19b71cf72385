import { UserError } from '../../../core/errors.js';
import { adminPolicy } from './templates/admin-policy.js';
import type { VizContext } from './templates/context.js';
import { metricsApi, PROMETHEUS_REQUIRED } from './templates/metrics-api.js';
import { metricsApiPolicy } from './templates/metrics-api-policy.js';
import { metricsApiRbac } from './templates/metrics-api-rbac.js';
import { vizNamespace } from './templates/namespace.js';
import { prometheus } from './templates/prometheus.js';
import { prometheusPolicy } from './templates/prometheus-policy.js';
import { prometheusRbac } from './templates/prometheus-rbac.js';
import { vizPsp } from './templates/psp.js';
import { serviceProfiles } from './templates/service-profiles.js';
import { tap } from './templates/tap.js';
import { tapInjector } from './templates/tap-injector.js';
import { tapInjectorPolicy } from './templates/tap-injector-policy.js';
import { tapInjectorRbac } from './templates/tap-injector-rbac.js';
import { tapPolicy } from './templates/tap-policy.js';
import { tapRbac } from './templates/tap-rbac.js';
import { tlsProblems } from './templates/tls.js';
import { GRAFANA_BOTH, web } from './templates/web.js';
import { webRbac } from './templates/web-rbac.js';
import type { VizValues } from './values.js';

export type { VizContext } from './templates/context.js';

/** A rendered Kubernetes object: apiVersion, kind and metadata always set. */
export interface VizObject {
  apiVersion: string;
  kind: string;
  metadata: { name?: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

/**
 * The combinations the chart refuses (its `fail`s), in the order its templates meet them: tap's
 * certificate (tap-rbac), Prometheus (metrics-api), tap-injector's certificate, Grafana (web).
 */
export function vizValueProblems(values: VizValues): string[] {
  return [
    ...tlsProblems('tap', values),
    ...(!values.prometheus.enabled && !values.prometheusUrl ? [PROMETHEUS_REQUIRED] : []),
    ...tlsProblems('tapInjector', values),
    ...(values.grafana.url && values.grafana.externalUrl ? [GRAFANA_BOTH] : []),
  ];
}

/** The objects of `linkerd viz install`, in the real chart's template order. Pure. */
export function renderViz(values: VizValues, ctx: VizContext): VizObject[] {
  const [problem] = vizValueProblems(values);
  if (problem) throw new UserError(problem);
  const objects: object[] = [
    vizNamespace(values, ctx),
    ...metricsApiRbac(values, ctx),
    ...prometheusRbac(values, ctx),
    ...tapRbac(values, ctx),
    ...webRbac(values, ctx),
    ...vizPsp(values, ctx),
    ...metricsApi(values, ctx),
    ...metricsApiPolicy(values, ctx),
    ...adminPolicy(values, ctx),
    ...prometheus(values, ctx),
    ...prometheusPolicy(values, ctx),
    ...tap(values, ctx),
    ...tapPolicy(values, ctx),
    ...tapInjectorRbac(values, ctx),
    ...tapInjector(values, ctx),
    ...tapInjectorPolicy(values, ctx),
    ...web(values, ctx),
    ...serviceProfiles(values, ctx),
  ];
  return objects as VizObject[];
}
