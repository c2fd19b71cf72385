import { UserError } from '../../../../core/errors.js';
import { kubeApiAccessMount, kubeApiAccessVolume } from '../../../../../templates/shared/serviceAccountToken.js';
import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { componentSecurityContext, logArgs, pullPolicy, vizDeployment, vizImage, vizPodDisruptionBudget, vizContainer, vizService } from './workload.js';

export const GRAFANA_BOTH = 'Cannot set both grafana.url (on-cluster Grafana) and grafana.externalUrl (off-cluster Grafana)';

const escapeDots = (s: string) => s.replace(/\./g, '\\.');

/**
 * The Host headers the dashboard answers: `dashboard.enforcedHostRegexp`, else only local names
 * and its own Service names (DNS rebinding protection).
 */
export function enforcedHost(values: VizValues, ctx: VizContext): string {
  if (values.dashboard.enforcedHostRegexp) return values.dashboard.enforcedHostRegexp;
  const full = escapeDots(`web.${ctx.namespace}.svc.${values.clusterDomain}`);
  const short = escapeDots(`web.${ctx.namespace}.svc`);
  return `^(localhost|127\\.0\\.0\\.1|${full}|${short}|\\[::1\\])(:\\d+)?$`;
}

function grafanaArgs(values: VizValues): string[] {
  const g = values.grafana;
  if (g.url && g.externalUrl) throw new UserError(GRAFANA_BOTH);
  return [
    ...(g.url ? [`-grafana-addr=${g.url}`] : []),
    ...(g.externalUrl ? [`-grafana-external-addr=${g.externalUrl}`] : []),
    ...(g.uidPrefix ? [`-grafana-prefix=${g.uidPrefix}`] : []),
  ];
}

/** The dashboard. */
export function web(values: VizValues, ctx: VizContext) {
  const d = values.dashboard;
  const container = vizContainer({
    args: [
      `-linkerd-metrics-api-addr=metrics-api.${ctx.namespace}.svc.${values.clusterDomain}:8085`,
      `-cluster-domain=${values.clusterDomain}`,
      ...grafanaArgs(values),
      ...(values.jaegerUrl ? [`-jaeger-addr=${values.jaegerUrl}`] : []),
      `-controller-namespace=${values.linkerdNamespace}`,
      ...logArgs(values, d),
      `-enforced-host=${enforcedHost(values, ctx)}`,
      `-enable-pprof=${values.enablePprof ?? false}`,
    ],
    image: vizImage(values, d.image),
    imagePullPolicy: pullPolicy(values, d.image),
    name: 'web',
    ports: [
      { containerPort: 8084, name: 'http' },
      { containerPort: 9994, name: 'admin' },
    ],
    adminPort: 9994,
    resources: d.resources,
    securityContext: componentSecurityContext(values, d),
    volumeMounts: [kubeApiAccessMount()],
  });
  return [
    vizService(values, ctx, {
      component: 'web',
      namespaceLabel: true,
      ports: [
        { name: 'http', port: 8084, targetPort: 8084 },
        { name: 'admin', port: 9994, targetPort: 9994 },
      ],
      annotations: d.service.annotations,
      labels: d.service.labels,
    }),
    vizDeployment(values, ctx, {
      component: 'web',
      namespaceLabel: true,
      replicas: d.replicas,
      proxy: d.proxy,
      containers: [container],
      volumes: [kubeApiAccessVolume()],
      nodeSelector: values.nodeSelector,
      tolerations: values.tolerations,
    }),
    ...vizPodDisruptionBudget(values, ctx, 'web', d.replicas, true),
  ];
}
