import { kubeApiAccessMount, kubeApiAccessVolume } from '../../../../../templates/shared/serviceAccountToken.js';
import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { componentSecurityContext, logArgs, pullPolicy, vizDeployment, vizImage, vizPodDisruptionBudget, vizContainer, vizService } from './workload.js';

/** The identity of the tap server, which the injected proxies are told to accept tap requests from. */
export function tapServiceIdentity(values: VizValues, ctx: VizContext): string {
  return `tap.${ctx.namespace}.serviceaccount.identity.${values.linkerdNamespace}.${values.identityTrustDomain || values.clusterDomain}`;
}

export function tapInjector(values: VizValues, ctx: VizContext) {
  const ti = values.tapInjector;
  const container = vizContainer({
    args: ['injector', `-tap-service-name=${tapServiceIdentity(values, ctx)}`, ...logArgs(values, ti), `-enable-pprof=${values.enablePprof ?? false}`],
    image: vizImage(values, ti.image),
    imagePullPolicy: pullPolicy(values, ti.image),
    name: 'tap-injector',
    ports: [
      { containerPort: 8443, name: 'tap-injector' },
      { containerPort: 9995, name: 'admin' },
    ],
    adminPort: 9995,
    resources: ti.resources,
    securityContext: componentSecurityContext(values, ti),
    volumeMounts: [{ mountPath: '/var/run/linkerd/tls', name: 'tls', readOnly: true }, kubeApiAccessMount()],
  });
  return [
    vizService(values, ctx, {
      component: 'tap-injector',
      ports: [{ name: 'tap-injector', port: 443, targetPort: 'tap-injector' }],
      annotations: ti.service.annotations,
      labels: ti.service.labels,
    }),
    vizDeployment(values, ctx, {
      component: 'tap-injector',
      replicas: ti.replicas,
      proxy: ti.proxy,
      containers: [container],
      volumes: [{ name: 'tls', secret: { secretName: 'tap-injector-k8s-tls' } }, kubeApiAccessVolume()],
      nodeSelector: values.nodeSelector,
      tolerations: values.tolerations,
    }),
    ...vizPodDisruptionBudget(values, ctx, 'tap-injector', ti.replicas),
  ];
}
