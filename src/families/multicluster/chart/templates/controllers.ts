import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type { Container, PodSpec, Service, ServiceAccount } from 'kubernetes-types/core/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from 'kubernetes-types/rbac/v1.js';
import { componentAffinity } from '../../../../../templates/shared/affinity.js';
import { kubeApiAccessMount, kubeApiAccessVolume } from '../../../../../templates/shared/serviceAccountToken.js';
import type { ControllerEntry, MulticlusterValues } from '../values.js';
import type { MulticlusterContext } from './context.js';
import { CLUSTER_NAME_LABEL, createdBy, labels, namespaced } from './metadata.js';
import { clusterRole, clusterRoleBinding, role, roleBinding, rule, serviceAccount } from './rbac.js';
import { disruptionBudget, envList, haStrategy, mirrorPodAnnotations, podSecurityContext, restrictedSecurityContext, scheduling } from './workload.js';
import { EXTENSION_LABEL } from '../../../../core/mesh/names.js';

/*
 * The service mirrors the install chart runs for `controllers:` (one per Link the source cluster
 * will get from link-gen): the chart's controller-clusterrole.yaml and controller/*.yaml. Each
 * entry's keys fall back to `controllerDefaults`, as the chart's `dig` does: a key the entry sets
 * wins even when false or zero.
 */

const CONTROLLER_ACCESS = 'linkerd-multicluster-controller-access-local-resources';
const crud = ['list', 'get', 'watch', 'create', 'delete', 'update'];

/** The ClusterRole every controller is bound to: mirror Services and Endpoints, see namespaces. */
export function controllerClusterRole(values: MulticlusterValues): ClusterRole {
  const rules = [rule([''], ['endpoints', 'services'], crud), rule([''], ['namespaces'], ['list', 'get', 'watch'])];
  if (values.enableNamespaceCreation) rules.push(rule([''], ['namespaces'], ['create']));
  return clusterRole(CONTROLLER_ACCESS, labels(values, { component: 'controller' }), rules);
}

/** An entry with its defaults resolved; `name` is the Link it serves (validated by render()). */
export interface ResolvedController {
  name: string;
  replicas: number;
  enablePodAntiAffinity: boolean;
  nodeAffinity: Record<string, unknown>;
  logLevel: string;
  logFormat: string;
  retryLimit: number;
  enableHeadlessServices: boolean;
  enablePprof: boolean;
  image: string;
  UID: number;
  GID: number;
  resources: Record<string, unknown>;
  nodeSelector: Record<string, string>;
  tolerations: Record<string, unknown>[];
  gatewayEnabled: boolean;
  probePort: number;
  /** The PDB falls back to the top-level `enablePodAntiAffinity`, not to controllerDefaults (so `--ha` gives one). */
  disruptionBudget: boolean;
}

export function resolveController(values: MulticlusterValues, entry: ControllerEntry, name: string): ResolvedController {
  const d = values.controllerDefaults;
  return {
    name,
    replicas: entry.replicas ?? d.replicas,
    enablePodAntiAffinity: entry.enablePodAntiAffinity ?? d.enablePodAntiAffinity,
    nodeAffinity: entry.nodeAffinity ?? d.nodeAffinity,
    logLevel: entry.logLevel ?? d.logLevel,
    logFormat: entry.logFormat ?? d.logFormat,
    retryLimit: entry.retryLimit ?? d.retryLimit,
    enableHeadlessServices: entry.enableHeadlessServices ?? d.enableHeadlessServices,
    enablePprof: entry.enablePprof ?? d.enablePprof,
    image: `${entry.image?.name ?? d.image.name}:${entry.image?.version ?? d.image.version}`,
    UID: entry.UID ?? d.UID,
    GID: entry.GID ?? d.GID,
    resources: entry.resources ?? d.resources,
    nodeSelector: entry.nodeSelector ?? d.nodeSelector,
    tolerations: entry.tolerations ?? d.tolerations,
    gatewayEnabled: entry.gateway?.enabled ?? d.gateway.enabled,
    probePort: entry.gateway?.probe?.port ?? d.gateway.probe.port,
    disruptionBudget: entry.enablePodAntiAffinity ?? values.enablePodAntiAffinity,
  };
}

const own = (c: ResolvedController) => ({ component: 'controller', [CLUSTER_NAME_LABEL]: c.name });

function controllerContainer(values: MulticlusterValues, ctx: MulticlusterContext, c: ResolvedController): Container {
  const args = [
    'service-mirror',
    `-log-level=${c.logLevel}`,
    `-log-format=${c.logFormat}`,
    `-event-requeue-limit=${c.retryLimit}`,
    `-namespace=${ctx.namespace}`,
  ];
  if (c.enableHeadlessServices) args.push('-enable-headless-services');
  if (values.enableNamespaceCreation) args.push('-enable-namespace-creation');
  args.push(`-enable-pprof=${c.enablePprof}`, `-probe-service=probe-${c.name}`, c.name);
  const container: Container = { args, name: 'controller' };
  const env = envList(values.serviceMirrorAdditionalEnv, values.serviceMirrorExperimentalEnv);
  if (env) container.env = env;
  container.image = c.image;
  container.securityContext = restrictedSecurityContext(c.UID, c.GID);
  container.volumeMounts = [kubeApiAccessMount()];
  container.ports = [{ containerPort: 9999, name: 'ctrl-admin' }];
  if (Object.keys(c.resources).length) container.resources = structuredClone(c.resources);
  return container;
}

function controllerDeployment(values: MulticlusterValues, ctx: MulticlusterContext, c: ResolvedController): Deployment {
  const spec = {} as PodSpec;
  const affinity = componentAffinity({ labelKey: CLUSTER_NAME_LABEL, component: c.name, antiAffinity: c.enablePodAntiAffinity, nodeAffinity: c.nodeAffinity });
  if (affinity) spec.affinity = affinity;
  spec.automountServiceAccountToken = false;
  spec.containers = [controllerContainer(values, ctx, c)];
  spec.securityContext = podSecurityContext();
  spec.serviceAccountName = `controller-${c.name}`;
  spec.volumes = [kubeApiAccessVolume()];
  Object.assign(spec, scheduling(c.nodeSelector, c.tolerations));
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: namespaced(`controller-${c.name}`, ctx, labels(values, own(c))),
    spec: {
      replicas: c.replicas,
      revisionHistoryLimit: values.revisionHistoryLimit,
      selector: { matchLabels: own(c) },
      ...(c.enablePodAntiAffinity ? { strategy: haStrategy() } : {}),
      template: {
        metadata: {
          annotations: mirrorPodAnnotations(values.podAnnotations),
          labels: { [EXTENSION_LABEL]: 'multicluster', ...own(c), ...values.podLabels },
        },
        spec,
      },
    },
  };
}

function controllerDisruptionBudget(values: MulticlusterValues, ctx: MulticlusterContext, c: ResolvedController): PodDisruptionBudget[] {
  if (!c.disruptionBudget) return [];
  return [disruptionBudget(namespaced(`controller-${c.name}`, ctx, { component: 'controller' }, createdBy(values)), own(c))];
}

/**
 * The Service the controller's prober dials (`probe-<link>`); the controller writes its Endpoints
 * from the Link's gateway addresses, so it has no selector. Gateway-less links need none.
 */
function probeService(values: MulticlusterValues, ctx: MulticlusterContext, c: ResolvedController): Service[] {
  if (!c.gatewayEnabled) return [];
  return [
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: namespaced(`probe-${c.name}`, ctx, labels(values, { 'mirror.linkerd.io/mirrored-gateway': 'true', [CLUSTER_NAME_LABEL]: c.name })),
      spec: { ports: [{ name: 'mc-probe', port: c.probePort, protocol: 'TCP' }] },
    },
  ];
}

/** The controller's identity: its ServiceAccount, bound to the shared ClusterRole and to a Role for its own Link's credentials. */
function controllerRbac(
  values: MulticlusterValues,
  ctx: MulticlusterContext,
  c: ResolvedController,
): (ServiceAccount | ClusterRoleBinding | Role | RoleBinding)[] {
  const account = `controller-${c.name}`;
  const creds = `controller-read-remote-creds-${c.name}`;
  return [
    serviceAccount(account, values, ctx, labels(values, own(c))),
    clusterRoleBinding(`${CONTROLLER_ACCESS}-${c.name}`, labels(values, own(c)), CONTROLLER_ACCESS, account, ctx),
    role(creds, ctx, labels(values, own(c)), [
      rule([''], ['secrets'], ['list', 'get', 'watch'], [`cluster-credentials-${c.name}`]),
      rule(['multicluster.linkerd.io'], ['links'], ['list', 'get', 'watch']),
      rule(['multicluster.linkerd.io'], ['links/status'], ['update', 'patch']),
      rule(['coordination.k8s.io'], ['leases'], ['create', 'get', 'update', 'patch']),
    ]),
    roleBinding(creds, ctx, labels(values, own(c)), creds, [account]),
  ];
}

/**
 * Every controller's objects in the chart's file order: all Deployments, then all PDBs, then all
 * probe Services, then each controller's RBAC group.
 */
export function controllerObjects(values: MulticlusterValues, ctx: MulticlusterContext, controllers: readonly ResolvedController[]): object[] {
  return [
    ...controllers.map((c) => controllerDeployment(values, ctx, c)),
    ...controllers.flatMap((c) => controllerDisruptionBudget(values, ctx, c)),
    ...controllers.flatMap((c) => probeService(values, ctx, c)),
    ...controllers.flatMap((c) => controllerRbac(values, ctx, c)),
  ];
}
