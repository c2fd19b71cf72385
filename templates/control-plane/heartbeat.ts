import type { CronJob } from 'kubernetes-types/batch/v1.js';
import type { Container } from 'kubernetes-types/core/v1.js';
import type { Values } from '../../src/core/values/index.js';
import type { ControlPlaneContext } from './context.js';
import { componentLabels, createdByAnnotation, namespacedMeta } from './metadata.js';
import { controllerImage, controllerResources, controllerSecurityContext, controlPlanePodSpec, kubeApiAccessMount } from './pod.js';
import { CONTROL_PLANE_COMPONENT_LABEL, WORKLOAD_NS_LABEL } from '../../src/core/mesh/names.js';

/**
 * The daily heartbeat (anonymous usage report), unmeshed. Its schedule is `heartbeatSchedule`
 * when set, else the context's (the CLI picks "ten minutes from now").
 */
export function heartbeatCronJob(values: Values, ctx: ControlPlaneContext): CronJob[] {
  if (values.disableHeartBeat) return [];
  const prometheus = values.prometheusUrl || `http://prometheus.linkerd-viz.svc.${values.clusterDomain}:9090`;
  const container: Container = {
    name: 'heartbeat',
    image: controllerImage(values),
    imagePullPolicy: values.imagePullPolicy,
    env: [{ name: 'LINKERD_DISABLED', value: 'the heartbeat controller does not use the proxy' }],
    args: [
      'heartbeat',
      `-controller-namespace=${ctx.namespace}`,
      `-log-level=${values.controllerLogLevel}`,
      `-log-format=${values.controllerLogFormat}`,
      `-prometheus-url=${prometheus}`,
    ],
  };
  const resources = controllerResources(values.heartbeatResources);
  if (resources) container.resources = resources;
  container.securityContext = controllerSecurityContext(values);
  container.volumeMounts = [kubeApiAccessMount()];
  const pod = controlPlanePodSpec(values, {
    component: 'heartbeat',
    serviceAccountName: 'linkerd-heartbeat',
    containers: [container],
    volumes: [],
    restartPolicy: 'Never',
    noAntiAffinity: true,
  });
  return [
    {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: namespacedMeta(
        'linkerd-heartbeat',
        ctx,
        componentLabels(values, ctx, 'heartbeat', {
          'app.kubernetes.io/name': 'heartbeat',
          'app.kubernetes.io/part-of': 'Linkerd',
          'app.kubernetes.io/version': values.linkerdVersion,
        }),
        createdByAnnotation(values, ctx),
      ),
      spec: {
        concurrencyPolicy: 'Replace',
        schedule: values.heartbeatSchedule || ctx.heartbeatSchedule,
        successfulJobsHistoryLimit: 0,
        jobTemplate: {
          spec: {
            template: {
              metadata: {
                labels: { [CONTROL_PLANE_COMPONENT_LABEL]: 'heartbeat', [WORKLOAD_NS_LABEL]: ctx.namespace, ...values.podLabels },
                annotations: { ...createdByAnnotation(values, ctx), ...values.podAnnotations },
              },
              spec: pod,
            },
          },
        },
      },
    },
  ];
}
