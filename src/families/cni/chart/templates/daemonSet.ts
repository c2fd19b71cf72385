import type { DaemonSet } from 'kubernetes-types/apps/v1.js';
import type { Container, EnvVar, PodSpec, ResourceRequirements, Volume, VolumeMount } from 'kubernetes-types/core/v1.js';
import { resourceRequirements, type ChartResources } from '../../../../../templates/proxy/resources.js';
import { CNI_CONFIG_MAP, CNI_NAME, CNI_RESOURCE_LABEL, INJECT_ANNOTATION, INJECT_DISABLED } from '../../../../core/mesh/names.js';
import type { CniValues } from '../values.js';
import { type CniContext, cniLabels, createdBy } from './meta.js';

/*
 * The DaemonSet that puts the plugin on every Linux node: install-cni copies the binary and the
 * network config to the host directories and stays up (SLEEP) to keep them current; the optional
 * repair-controller deletes meshed pods whose network validator failed, so they start again.
 */

const APP = { 'k8s-app': CNI_NAME };
const REPAIR_PORT = 9990;
const REPAIR_PORT_NAME = 'repair-admin';

/** The chart always writes `resources:`; an empty one when nothing is set. */
function resources(r: ChartResources | null): ResourceRequirements {
  return resourceRequirements(r) ?? {};
}

function fromConfigMap(name: string, key: string): EnvVar {
  return { name, valueFrom: { configMapKeyRef: { name: CNI_CONFIG_MAP, key } } };
}

/** One host directory when the binary and the config share it, two otherwise. */
function hostDirs(values: CniValues): { mounts: VolumeMount[]; volumes: Volume[] } {
  const dirs: [string, string][] =
    values.destCNIBinDir === values.destCNINetDir
      ? [['cni-net-dir', values.destCNINetDir]]
      : [
          ['cni-bin-dir', values.destCNIBinDir],
          ['cni-net-dir', values.destCNINetDir],
        ];
  return {
    mounts: dirs.map(([name, dir]) => ({ mountPath: `/host${dir}`, name })),
    volumes: dirs.map(([name, path]) => ({ name, hostPath: { path } })),
  };
}

function image(values: CniValues): Pick<Container, 'image' | 'imagePullPolicy'> {
  // The CLI sets no pull policy (null): the cluster's default applies.
  const out: Pick<Container, 'image' | 'imagePullPolicy'> = { image: `${values.image.name}:${values.image.version}` };
  if (values.image.pullPolicy) out.imagePullPolicy = values.image.pullPolicy;
  return out;
}

function installCni(values: CniValues, mounts: VolumeMount[]): Container {
  return {
    name: 'install-cni',
    ...image(values),
    env: [
      fromConfigMap('DEST_CNI_NET_DIR', 'dest_cni_net_dir'),
      fromConfigMap('DEST_CNI_BIN_DIR', 'dest_cni_bin_dir'),
      fromConfigMap('CNI_NETWORK_CONFIG', 'cni_network_config'),
      { name: 'SLEEP', value: 'true' },
    ],
    // Gives the container's script the time to remove the plugin from the node's chain.
    lifecycle: { preStop: { exec: { command: ['/bin/sh', '-c', 'kill -15 1; sleep 15s'] } } },
    volumeMounts: [...mounts, { mountPath: '/tmp', name: 'linkerd-tmp-dir' }],
    securityContext: { readOnlyRootFilesystem: true, privileged: values.privileged },
    resources: resources(values.resources),
  };
}

function repairController(values: CniValues): Container {
  const rc = values.repairController;
  const container: Container = { name: 'repair-controller', ...image(values) };
  // The chart puts all of these under enableSecurityContext, so turning it off drops them all.
  if (rc.enableSecurityContext) {
    Object.assign(container, {
      env: [
        { name: 'LINKERD_CNI_REPAIR_CONTROLLER_NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
        { name: 'LINKERD_CNI_REPAIR_CONTROLLER_POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      ],
      command: ['/usr/lib/linkerd/linkerd-cni-repair-controller'],
      args: ['--admin-addr', `${values.disableIPv6 ? '0.0.0.0' : '[::]'}:${REPAIR_PORT}`, '--log-format', rc.logFormat, '--log-level', rc.logLevel],
      livenessProbe: { httpGet: { path: '/live', port: REPAIR_PORT_NAME } },
      readinessProbe: { failureThreshold: 7, httpGet: { path: '/ready', port: REPAIR_PORT_NAME }, initialDelaySeconds: 10 },
      ports: [{ containerPort: REPAIR_PORT, name: REPAIR_PORT_NAME }],
      securityContext: {
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
        privileged: false,
        readOnlyRootFilesystem: true,
        seccompProfile: { type: 'RuntimeDefault' },
      },
    } satisfies Partial<Container>);
  }
  container.resources = resources(rc.resources);
  return container;
}

export function cniDaemonSet(values: CniValues, ctx: CniContext): DaemonSet {
  const { mounts, volumes } = hostDirs(values);
  const containers = [installCni(values, mounts), ...(values.repairController.enabled ? [repairController(values)] : [])];
  // Built key by key so the output reads in the chart's order; containers is set below.
  const spec = {} as PodSpec;
  if (values.tolerations?.length) spec.tolerations = values.tolerations;
  spec.nodeSelector = { 'kubernetes.io/os': 'linux' };
  if (values.nodeAffinity && Object.keys(values.nodeAffinity).length) spec.affinity = { nodeAffinity: values.nodeAffinity };
  spec.securityContext = { seccompProfile: { type: 'RuntimeDefault' } };
  spec.serviceAccountName = CNI_NAME;
  if (values.priorityClassName) spec.priorityClassName = values.priorityClassName;
  if (values.extraInitContainers?.length) spec.initContainers = values.extraInitContainers as unknown as Container[];
  spec.containers = containers;
  spec.volumes = [...volumes, { name: 'linkerd-tmp-dir', emptyDir: {} }];

  const template: NonNullable<DaemonSet['spec']>['template'] = {
    metadata: {
      labels: { ...APP, [CNI_RESOURCE_LABEL]: 'true', ...(values.podLabels ?? {}) },
      annotations: { ...createdBy(values), [INJECT_ANNOTATION]: INJECT_DISABLED },
    },
    spec,
  };
  const dsSpec: NonNullable<DaemonSet['spec']> = {
    revisionHistoryLimit: values.revisionHistoryLimit,
    selector: { matchLabels: APP },
    ...(values.updateStrategy ? { updateStrategy: values.updateStrategy } : {}),
    template,
  };
  return {
    kind: 'DaemonSet',
    apiVersion: 'apps/v1',
    metadata: { name: CNI_NAME, namespace: ctx.namespace, labels: cniLabels(values, APP), annotations: createdBy(values) },
    spec: dsSpec,
  };
}
