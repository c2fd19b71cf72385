import type { MutatingWebhookConfiguration, ValidatingWebhookConfiguration } from 'kubernetes-types/admissionregistration/v1.js';
import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1.js';
import type { CronJob, Job } from 'kubernetes-types/batch/v1.js';
import type { ConfigMap, Endpoints, Namespace, Node, Pod, Secret, Service, ServiceAccount } from 'kubernetes-types/core/v1.js';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1.js';
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from 'kubernetes-types/rbac/v1.js';

/** Any Kubernetes object, as the API server serializes it. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

/** kube-aggregator's APIService (not part of kubernetes-types). */
export interface APIService {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: {
    group?: string;
    version?: string;
    service?: { name?: string; namespace?: string; port?: number };
    caBundle?: string;
    insecureSkipTLSVerify?: boolean;
    groupPriorityMinimum: number;
    versionPriority: number;
  };
  status?: {
    conditions?: Array<{ type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }>;
  };
}

/** The object type each built-in resource name lists and gets. */
export interface BuiltinObjects {
  pods: Pod;
  namespaces: Namespace;
  nodes: Node;
  configmaps: ConfigMap;
  secrets: Secret;
  services: Service;
  serviceaccounts: ServiceAccount;
  endpoints: Endpoints;
  deployments: Deployment;
  replicasets: ReplicaSet;
  daemonsets: DaemonSet;
  statefulsets: StatefulSet;
  jobs: Job;
  cronjobs: CronJob;
  clusterroles: ClusterRole;
  clusterrolebindings: ClusterRoleBinding;
  roles: Role;
  rolebindings: RoleBinding;
  customresourcedefinitions: CustomResourceDefinition;
  mutatingwebhookconfigurations: MutatingWebhookConfiguration;
  validatingwebhookconfigurations: ValidatingWebhookConfiguration;
  apiservices: APIService;
  endpointslices: EndpointSlice;
  poddisruptionbudgets: PodDisruptionBudget;
}

export type BuiltinResource = keyof BuiltinObjects;

/** Where a resource lives in the API: enough to build its URLs. */
export interface ResourceType {
  /** API group; `''` for the core group. */
  group: string;
  version: string;
  /** The plural resource name used in URLs (`pods`, `servers`). */
  plural: string;
  kind: string;
  namespaced: boolean;
}

/** A resource served by a CustomResourceDefinition (or anything not in the built-in table). */
export type CustomResource = ResourceType;

/** What `get`/`list` accept: a built-in resource name or a full resource type. */
export type ResourceRef = BuiltinResource | CustomResource;

/** The object type a resource reference yields. */
export type ObjectOf<R extends ResourceRef> = R extends BuiltinResource ? BuiltinObjects[R] : KubeObject;

const core = (plural: string, kind: string, namespaced = true): ResourceType => ({ group: '', version: 'v1', plural, kind, namespaced });
const grouped =
  (group: string, version: string) =>
  (plural: string, kind: string, namespaced = true): ResourceType => ({
    group,
    version,
    plural,
    kind,
    namespaced,
  });
const apps = grouped('apps', 'v1');
const batch = grouped('batch', 'v1');
const rbac = grouped('rbac.authorization.k8s.io', 'v1');
const admission = grouped('admissionregistration.k8s.io', 'v1');

/** Built-in resources the CLI reads, with the preferred version of a current cluster. */
export const BUILTIN_RESOURCES: { readonly [R in BuiltinResource]: ResourceType } = {
  pods: core('pods', 'Pod'),
  namespaces: core('namespaces', 'Namespace', false),
  nodes: core('nodes', 'Node', false),
  configmaps: core('configmaps', 'ConfigMap'),
  secrets: core('secrets', 'Secret'),
  services: core('services', 'Service'),
  serviceaccounts: core('serviceaccounts', 'ServiceAccount'),
  endpoints: core('endpoints', 'Endpoints'),
  deployments: apps('deployments', 'Deployment'),
  replicasets: apps('replicasets', 'ReplicaSet'),
  daemonsets: apps('daemonsets', 'DaemonSet'),
  statefulsets: apps('statefulsets', 'StatefulSet'),
  jobs: batch('jobs', 'Job'),
  cronjobs: batch('cronjobs', 'CronJob'),
  clusterroles: rbac('clusterroles', 'ClusterRole', false),
  clusterrolebindings: rbac('clusterrolebindings', 'ClusterRoleBinding', false),
  roles: rbac('roles', 'Role'),
  rolebindings: rbac('rolebindings', 'RoleBinding'),
  customresourcedefinitions: grouped('apiextensions.k8s.io', 'v1')('customresourcedefinitions', 'CustomResourceDefinition', false),
  mutatingwebhookconfigurations: admission('mutatingwebhookconfigurations', 'MutatingWebhookConfiguration', false),
  validatingwebhookconfigurations: admission('validatingwebhookconfigurations', 'ValidatingWebhookConfiguration', false),
  apiservices: grouped('apiregistration.k8s.io', 'v1')('apiservices', 'APIService', false),
  endpointslices: grouped('discovery.k8s.io', 'v1')('endpointslices', 'EndpointSlice'),
  poddisruptionbudgets: grouped('policy', 'v1')('poddisruptionbudgets', 'PodDisruptionBudget'),
};

export function resourceType(ref: ResourceRef): ResourceType {
  if (typeof ref !== 'string') return ref;
  return BUILTIN_RESOURCES[ref];
}

/** `apps/v1`, or `v1` for the core group. */
export function apiVersionOf(t: Pick<ResourceType, 'group' | 'version'>): string {
  return t.group === '' ? t.version : `${t.group}/${t.version}`;
}

/** `deployments.apps`, or `pods` for the core group: how Kubernetes names a resource in messages. */
export function qualifiedName(t: Pick<ResourceType, 'group' | 'plural'>): string {
  return t.group === '' ? t.plural : `${t.plural}.${t.group}`;
}

/** The URL path of a collection (namespace given) or of all objects of the type (namespace omitted). */
export function collectionPath(t: ResourceType, namespace?: string): string {
  const prefix = t.group === '' ? `/api/${t.version}` : `/apis/${t.group}/${t.version}`;
  const ns = t.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${prefix}${ns}/${t.plural}`;
}

export function objectPath(t: ResourceType, name: string, namespace?: string): string {
  return `${collectionPath(t, namespace)}/${encodeURIComponent(name)}`;
}
