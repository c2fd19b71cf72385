import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type { Container, PodSpec, Service, ServiceAccount } from 'kubernetes-types/core/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from 'kubernetes-types/rbac/v1.js';
import { componentAffinity } from '../../../../templates/shared/affinity.js';
import { kubeApiAccessMount, kubeApiAccessVolume } from '../../../../templates/shared/serviceAccountToken.js';
import type { MulticlusterContext } from '../chart/templates/context.js';
import { CLUSTER_NAME_LABEL, EXTENSION, EXTENSION_LABEL, namespaced } from '../chart/templates/metadata.js';
import { clusterRole, clusterRoleBinding, role, roleBinding, rule } from '../chart/templates/rbac.js';
import { disruptionBudget, haStrategy, mirrorPodAnnotations, podSecurityContext, restrictedSecurityContext, scheduling } from '../chart/templates/workload.js';
import type { LinkChartValues } from './values.js';
import { CREATED_BY_ANNOTATION } from '../../../core/mesh/names.js';

/*
 * The linkerd-multicluster-link chart (service-mirror.yaml, psp.yaml, gateway-mirror.yaml): the
 * service mirror the deprecated `link` prints after the Link, in `--namespace`. Its Deployment is
 * labelled `component: service-mirror` while its pods are `component: linkerd-service-mirror`, as in
 * the chart (check and gateways select on each spelling).
 */

const crud = ['list', 'get', 'watch', 'create', 'delete', 'update'];

export function renderLinkChart(values: LinkChartValues, ctx: MulticlusterContext): object[] {
  const c = values.targetClusterName;
  const mirror = `linkerd-service-mirror-${c}`;
  const access = `linkerd-service-mirror-access-local-resources-${c}`;
  const creds = `linkerd-service-mirror-read-remote-creds-${c}`;
  const labels = { [EXTENSION_LABEL]: EXTENSION, component: 'service-mirror', [CLUSTER_NAME_LABEL]: c, ...values.commonLabels };
  const podLabels = { component: 'linkerd-service-mirror', [CLUSTER_NAME_LABEL]: c };

  const clusterRules = [rule([''], ['endpoints', 'services'], crud), rule([''], ['namespaces'], ['list', 'get', 'watch'])];
  if (values.enableNamespaceCreation) clusterRules.push(rule([''], ['namespaces'], ['create']));

  const sa: ServiceAccount = { kind: 'ServiceAccount', apiVersion: 'v1', metadata: namespaced(mirror, ctx, { ...labels }) };
  if (values.imagePullSecrets?.length) sa.imagePullSecrets = values.imagePullSecrets.map((s) => ({ name: s.name }));

  const args = [
    'service-mirror',
    `-log-level=${values.logLevel}`,
    `-log-format=${values.logFormat}`,
    `-event-requeue-limit=${values.serviceMirrorRetryLimit}`,
    `-namespace=${ctx.namespace}`,
  ];
  if (values.enableHeadlessServices) args.push('-enable-headless-services');
  if (values.enableNamespaceCreation) args.push('-enable-namespace-creation');
  args.push(`-enable-pprof=${values.enablePprof ?? false}`, `-probe-service=probe-gateway-${c}`, c);
  const container: Container = {
    args,
    image: `${values.controllerImage}:${values.controllerImageVersion}`,
    name: 'service-mirror',
    securityContext: restrictedSecurityContext(values.serviceMirrorUID, values.serviceMirrorGID),
    volumeMounts: [kubeApiAccessMount()],
    ports: [{ containerPort: 9999, name: 'svcmi-admin' }],
  };
  if (values.resources && Object.keys(values.resources).length) container.resources = structuredClone(values.resources);

  const spec = {} as PodSpec;
  const affinity = componentAffinity({
    labelKey: CLUSTER_NAME_LABEL,
    component: c,
    antiAffinity: values.enablePodAntiAffinity,
    nodeAffinity: values.nodeAffinity,
  });
  if (affinity) spec.affinity = affinity;
  spec.automountServiceAccountToken = false;
  spec.containers = [container];
  spec.securityContext = podSecurityContext();
  spec.serviceAccountName = mirror;
  spec.volumes = [kubeApiAccessVolume()];
  Object.assign(spec, scheduling(values.nodeSelector, values.tolerations));

  const deployment: Deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: namespaced(mirror, ctx, { ...labels }),
    spec: {
      replicas: values.replicas,
      revisionHistoryLimit: values.revisionHistoryLimit,
      selector: { matchLabels: { ...podLabels } },
      ...(values.enablePodAntiAffinity ? { strategy: haStrategy() } : {}),
      template: {
        metadata: {
          annotations: mirrorPodAnnotations(values.podAnnotations ?? {}),
          labels: { [EXTENSION_LABEL]: EXTENSION, ...podLabels, ...values.podLabels },
        },
        spec,
      },
    },
  };

  const objects: (ClusterRole | ClusterRoleBinding | Role | RoleBinding | ServiceAccount | Deployment | PodDisruptionBudget | Service)[] = [
    clusterRole(access, { ...labels }, clusterRules),
    clusterRoleBinding(access, { ...labels }, access, mirror, ctx),
    role(creds, ctx, { ...labels }, [
      rule([''], ['secrets'], ['list', 'get', 'watch'], [`cluster-credentials-${c}`]),
      rule(['multicluster.linkerd.io'], ['links'], ['list', 'get', 'watch']),
      rule(['multicluster.linkerd.io'], ['links/status'], ['update', 'patch']),
      rule(['coordination.k8s.io'], ['leases'], ['create', 'get', 'update', 'patch']),
    ]),
    roleBinding(creds, ctx, { ...labels }, creds, [mirror]),
    sa,
    deployment,
  ];
  if (values.enablePodAntiAffinity) {
    objects.push(disruptionBudget(namespaced(mirror, ctx, { ...labels }, { [CREATED_BY_ANNOTATION]: values.cliVersion }), { ...podLabels }));
  }
  if (values.enablePSP) objects.push(roleBinding(`linkerd-multicluster-link-psp-${c}`, ctx, { ...labels }, 'psp', [mirror]));
  if (values.gateway.enabled) {
    objects.push({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: namespaced(`probe-gateway-${c}`, ctx, {
        [EXTENSION_LABEL]: EXTENSION,
        'mirror.linkerd.io/mirrored-gateway': 'true',
        [CLUSTER_NAME_LABEL]: c,
        ...values.commonLabels,
      }),
      spec: { ports: [{ name: 'mc-probe', port: values.gateway.probe.port, protocol: 'TCP' }] },
    });
  }
  return objects;
}
