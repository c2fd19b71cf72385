import { UserError } from '../../../../core/errors.js';
import { kubeApiAccessMount, kubeApiAccessVolume } from '../../../../../templates/shared/serviceAccountToken.js';
import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { componentSecurityContext, logArgs, pullPolicy, vizDeployment, vizImage, vizPodDisruptionBudget, vizContainer, vizService } from './workload.js';

export const PROMETHEUS_REQUIRED = 'Please enable `linkerd-prometheus` or provide `prometheusUrl` for the viz extension to function properly';

/** The Prometheus the metrics API queries: the external one, else viz's own. */
export function prometheusUrlOf(values: VizValues, ctx: VizContext): string {
  if (values.prometheusUrl) return values.prometheusUrl;
  if (!values.prometheus.enabled) throw new UserError(PROMETHEUS_REQUIRED);
  return `http://prometheus.${ctx.namespace}.svc.${values.clusterDomain}:9090`;
}

/** The metrics API: the stats, edges and routes the CLI and dashboard show, computed from Prometheus. */
export function metricsApi(values: VizValues, ctx: VizContext) {
  const m = values.metricsAPI;
  const container = vizContainer({
    args: [
      `-controller-namespace=${values.linkerdNamespace}`,
      ...logArgs(values, m),
      `-cluster-domain=${values.clusterDomain}`,
      `-prometheus-url=${prometheusUrlOf(values, ctx)}`,
      `-enable-pprof=${values.enablePprof ?? false}`,
    ],
    image: vizImage(values, m.image),
    imagePullPolicy: pullPolicy(values, m.image),
    name: 'metrics-api',
    ports: [
      { containerPort: 8085, name: 'http' },
      { containerPort: 9995, name: 'admin' },
    ],
    adminPort: 9995,
    resources: m.resources,
    securityContext: componentSecurityContext(values, m),
    volumeMounts: [kubeApiAccessMount()],
  });
  return [
    vizService(values, ctx, {
      component: 'metrics-api',
      ports: [{ name: 'http', port: 8085, targetPort: 8085 }],
      annotations: m.service.annotations,
      labels: m.service.labels,
    }),
    vizDeployment(values, ctx, {
      component: 'metrics-api',
      replicas: m.replicas,
      proxy: m.proxy,
      containers: [container],
      volumes: [kubeApiAccessVolume()],
      nodeSelector: m.nodeSelector,
      tolerations: m.tolerations ?? values.tolerations,
    }),
    ...vizPodDisruptionBudget(values, ctx, 'metrics-api', m.replicas),
  ];
}
