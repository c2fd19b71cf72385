import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type { ConfigMap, Container, PersistentVolumeClaim, Volume, VolumeMount } from 'kubernetes-types/core/v1.js';
import { resourceRequirements } from '../../../../../templates/proxy/resources.js';
import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { createdByAnnotation, namespacedMeta, vizLabels } from './meta.js';
import { prometheusYaml } from './prometheus-config.js';
import { httpProbe, pullPolicy, restrictedSecurityContext, vizDeployment, vizService } from './workload.js';

/** Prometheus runs as `nobody` (65534), the image's own user. */
const NOBODY = 65534;

/** `--<key>=<value>` per arg in key order (Helm ranges over a map sorted), log flags first unless given. */
export function prometheusArgs(values: VizValues): string[] {
  const p = values.prometheus;
  const args: string[] = [];
  if (!('log.level' in p.args)) args.push(`--log.level=${p.logLevel || values.defaultLogLevel}`);
  if (!('log.format' in p.args)) args.push(`--log.format=${p.logFormat || values.defaultLogFormat}`);
  for (const key of Object.keys(p.args).sort()) {
    const value = p.args[key];
    args.push(value === null || value === '' || value === false ? `--${key}` : `--${key}=${String(value)}`);
  }
  return args;
}

function prometheusContainer(values: VizValues): Container {
  const p = values.prometheus;
  const probe = (path: string) => httpProbe(path, 9090, { initialDelaySeconds: 30, timeoutSeconds: 30 });
  const mounts: VolumeMount[] = [
    ...(p.ruleConfigMapMounts ?? []).map((m) => ({ name: m.name, mountPath: `/etc/prometheus/${m.subPath}`, subPath: m.subPath, readOnly: true })),
    { mountPath: '/data', name: 'data' },
    { mountPath: '/etc/prometheus/prometheus.yml', name: 'prometheus-config', subPath: 'prometheus.yml', readOnly: true },
  ];
  const c: Container = {
    args: prometheusArgs(values),
    image: `${p.image.registry}/${p.image.name}:${p.image.tag}`,
    imagePullPolicy: pullPolicy(values, p.image),
    livenessProbe: probe('/-/healthy'),
    name: 'prometheus',
    ports: [{ containerPort: 9090, name: 'admin' }],
    readinessProbe: probe('/-/ready'),
  };
  const resources = resourceRequirements(p.resources);
  if (resources) c.resources = resources;
  c.securityContext = restrictedSecurityContext(NOBODY, NOBODY);
  c.volumeMounts = mounts;
  return c;
}

function persistentVolumeClaim(values: VizValues, ctx: VizContext): PersistentVolumeClaim[] {
  const persistence = values.prometheus.persistence;
  if (!persistence) return [];
  const labels = { ...vizLabels(values, { component: 'prometheus' }), 'app.kubernetes.io/name': 'prometheus', 'app.kubernetes.io/part-of': 'Linkerd' };
  return [
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: namespacedMeta('prometheus', ctx.namespace, labels),
      spec: {
        accessModes: [persistence.accessMode],
        resources: { requests: { storage: persistence.size } },
        ...(persistence.storageClass ? { storageClassName: persistence.storageClass } : {}),
      },
    },
  ];
}

/** viz's own Prometheus (unless `prometheus.enabled: false`): its configuration, Service and Deployment. */
export function prometheus(values: VizValues, ctx: VizContext): object[] {
  const p = values.prometheus;
  if (!p.enabled) return [];
  const nsLabels = vizLabels(values, { component: 'prometheus', namespace: ctx.namespace });
  const config: ConfigMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: namespacedMeta('prometheus-config', ctx.namespace, nsLabels, createdByAnnotation(values)),
    data: { 'prometheus.yml': prometheusYaml(values, ctx) },
  };
  const volumes: Volume[] = [
    ...(p.ruleConfigMapMounts ?? []).map((m) => ({ name: m.name, configMap: { name: m.configMap } })),
    p.persistence ? { name: 'data', persistentVolumeClaim: { claimName: 'prometheus' } } : { name: 'data', emptyDir: {} },
    { name: 'prometheus-config', configMap: { name: 'prometheus-config' } },
  ];
  const deployment: Deployment = vizDeployment(values, ctx, {
    component: 'prometheus',
    namespaceLabel: true,
    replicas: 1,
    proxy: p.proxy,
    containers: [...(structuredClone(p.sidecarContainers ?? []) as Container[]), prometheusContainer(values)],
    volumes,
    nodeSelector: p.nodeSelector,
    tolerations: p.tolerations ?? values.tolerations,
    // Kubernetes service discovery reads the API with the pod's own token.
    manualToken: false,
    podSecurityContext: { fsGroup: NOBODY },
    // A ReadWriteOnce volume cannot be shared by the old and the new pod.
    ...(p.persistence ? { strategy: { type: 'Recreate' } } : {}),
    noAntiAffinity: true,
  });
  return [
    config,
    vizService(values, ctx, { component: 'prometheus', namespaceLabel: true, ports: [{ name: 'admin', port: 9090, targetPort: 9090 }] }),
    deployment,
    ...persistentVolumeClaim(values, ctx),
  ];
}
