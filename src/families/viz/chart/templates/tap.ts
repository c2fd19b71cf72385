import { kubeApiAccessMount, kubeApiAccessVolume } from '../../../../../templates/shared/serviceAccountToken.js';
import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { componentSecurityContext, logArgs, pullPolicy, vizDeployment, vizImage, vizPodDisruptionBudget, vizContainer, vizService } from './workload.js';

/** The tap server: gRPC for the dashboard (8088) and the aggregated API the API server forwards to (8089). */
export function tap(values: VizValues, ctx: VizContext) {
  const t = values.tap;
  const container = vizContainer({
    args: [
      'api',
      `-api-namespace=${values.linkerdNamespace}`,
      ...logArgs(values, t),
      `-identity-trust-domain=${values.identityTrustDomain || values.clusterDomain}`,
      `-enable-pprof=${values.enablePprof ?? false}`,
      ...(t.ignoreHeaders.length ? [`-ignore-headers=${t.ignoreHeaders.join(',')}`] : []),
    ],
    image: vizImage(values, t.image),
    imagePullPolicy: pullPolicy(values, t.image),
    name: 'tap',
    ports: [
      { containerPort: 8088, name: 'grpc' },
      { containerPort: 8089, name: 'apiserver' },
      { containerPort: 9998, name: 'admin' },
    ],
    adminPort: 9998,
    resources: t.resources,
    securityContext: componentSecurityContext(values, t),
    volumeMounts: [{ mountPath: '/var/run/linkerd/tls', name: 'tls', readOnly: true }, kubeApiAccessMount()],
  });
  return [
    vizService(values, ctx, {
      component: 'tap',
      namespaceLabel: true,
      ports: [
        { name: 'grpc', port: 8088, targetPort: 8088 },
        { name: 'apiserver', port: 443, targetPort: 'apiserver' },
      ],
      annotations: t.service.annotations,
      labels: t.service.labels,
    }),
    vizDeployment(values, ctx, {
      component: 'tap',
      namespaceLabel: true,
      replicas: t.replicas,
      proxy: t.proxy,
      containers: [container],
      volumes: [{ name: 'tls', secret: { secretName: 'tap-k8s-tls' } }, kubeApiAccessVolume()],
      nodeSelector: values.nodeSelector,
      tolerations: values.tolerations,
      // With anti-affinity a surge pod may have no node to go to: replace one replica at a time.
      ...(values.enablePodAntiAffinity ? { strategy: { rollingUpdate: { maxUnavailable: 1 } } } : {}),
    }),
    ...vizPodDisruptionBudget(values, ctx, 'tap', t.replicas, true),
  ];
}
