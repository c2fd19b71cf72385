import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type { Container, PodSpec, ServiceAccount } from 'kubernetes-types/core/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import type { ClusterRole, ClusterRoleBinding } from 'kubernetes-types/rbac/v1.js';
import { componentAffinity } from '../../../../../templates/shared/affinity.js';
import { kubeApiAccessMount, kubeApiAccessVolume } from '../../../../../templates/shared/serviceAccountToken.js';
import type { MulticlusterValues } from '../values.js';
import type { MulticlusterContext } from './context.js';
import { createdBy, labels, namespaced } from './metadata.js';
import { clusterRole, clusterRoleBinding, rule, serviceAccount } from './rbac.js';
import { disruptionBudget, envList, haStrategy, mirrorPodAnnotations, podSecurityContext, restrictedSecurityContext, scheduling } from './workload.js';
import { EXTENSION_LABEL } from '../../../../core/mesh/names.js';

/*
 * The chart's local-service-mirror.yaml: the service mirror that watches this cluster itself, for
 * federated services whose members live here. Always installed, gateway or not.
 */

const NAME = 'linkerd-local-service-mirror';
const COMPONENT = 'local-service-mirror';
const ACCESS = 'linkerd-local-service-mirror-access-local-resources';

const crud = ['list', 'get', 'watch', 'create', 'delete', 'update'];

function localMirrorContainer(values: MulticlusterValues, ctx: MulticlusterContext): Container {
  const m = values.localServiceMirror;
  const c: Container = {
    args: [
      'service-mirror',
      `-log-level=${m.logLevel}`,
      `-log-format=${m.logFormat}`,
      `-event-requeue-limit=${m.serviceMirrorRetryLimit}`,
      `-namespace=${ctx.namespace}`,
      `-enable-pprof=${m.enablePprof}`,
      '-local-mirror',
      `-federated-service-selector=${m.federatedServiceSelector}`,
      `-excluded-labels=${m.excludedLabels}`,
      `-excluded-annotations=${m.excludedAnnotations}`,
    ],
    name: 'service-mirror',
  };
  const env = envList(m.additionalEnv, m.experimentalEnv);
  if (env) c.env = env;
  c.image = `${m.image.name}:${m.image.version}`;
  c.securityContext = restrictedSecurityContext(m.UID, m.GID);
  c.volumeMounts = [kubeApiAccessMount()];
  c.ports = [{ containerPort: 9999, name: 'locsm-admin' }];
  if (Object.keys(m.resources).length) c.resources = structuredClone(m.resources);
  return c;
}

function localMirrorDeployment(values: MulticlusterValues, ctx: MulticlusterContext): Deployment {
  const own = { component: COMPONENT };
  const spec = {} as PodSpec;
  // Unlike the gateway, the chart adds affinity here only with anti-affinity on.
  if (values.enablePodAntiAffinity) {
    spec.affinity = componentAffinity({ labelKey: 'component', component: COMPONENT, antiAffinity: true, nodeAffinity: values.nodeAffinity });
  }
  spec.automountServiceAccountToken = false;
  spec.containers = [localMirrorContainer(values, ctx)];
  spec.securityContext = podSecurityContext();
  spec.serviceAccountName = NAME;
  spec.volumes = [kubeApiAccessVolume()];
  Object.assign(spec, scheduling(values.nodeSelector, values.tolerations));
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: namespaced(NAME, ctx, labels(values, own)),
    spec: {
      replicas: values.localServiceMirror.replicas,
      revisionHistoryLimit: values.revisionHistoryLimit,
      selector: { matchLabels: { ...own } },
      ...(values.enablePodAntiAffinity ? { strategy: haStrategy() } : {}),
      template: {
        metadata: {
          annotations: mirrorPodAnnotations(values.podAnnotations),
          labels: { [EXTENSION_LABEL]: 'multicluster', ...own, ...values.podLabels },
        },
        spec,
      },
    },
  };
}

export function localServiceMirror(
  values: MulticlusterValues,
  ctx: MulticlusterContext,
): (ClusterRole | ClusterRoleBinding | ServiceAccount | Deployment | PodDisruptionBudget)[] {
  const own = labels(values, { component: COMPONENT });
  const out: (ClusterRole | ClusterRoleBinding | ServiceAccount | Deployment | PodDisruptionBudget)[] = [
    clusterRole(ACCESS, own, [
      rule([''], ['endpoints', 'services'], crud),
      rule([''], ['namespaces'], ['list', 'get', 'watch']),
      rule(['coordination.k8s.io'], ['leases'], ['create', 'get', 'update', 'patch']),
      rule(['multicluster.linkerd.io'], ['links'], ['list', 'get', 'watch']),
      rule(['multicluster.linkerd.io'], ['links/status'], ['update']),
    ]),
    clusterRoleBinding(ACCESS, labels(values, { component: COMPONENT }), ACCESS, NAME, ctx),
    serviceAccount(NAME, values, ctx, labels(values, { component: COMPONENT })),
    localMirrorDeployment(values, ctx),
  ];
  // The chart gives this PDB only the component label (no extension label, no commonLabels).
  if (values.enablePodAntiAffinity) out.push(disruptionBudget(namespaced(NAME, ctx, { component: COMPONENT }, createdBy(values)), { component: COMPONENT }));
  return out;
}
