/**
 * What the test API server serves: the built-in resource types of a current Kubernetes
 * release (a subset large enough for kubectl and linkerd), plus whatever the loaded
 * CustomResourceDefinitions define.
 */

export interface ServedResource {
  group: string;
  version: string;
  plural: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  shortNames: string[];
  verbs: string[];
  categories: string[];
  /** Only reviews (SelfSubjectAccessReview …): POST returns a computed answer, nothing is stored. */
  createOnly?: boolean;
}

const CRUD = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

type Row = [plural: string, kind: string, namespaced: boolean, shortNames?: string[], categories?: string[]];

function group(groupName: string, version: string, rows: Row[]): ServedResource[] {
  return rows.map(([plural, kind, namespaced, shortNames = [], categories = []]) => ({
    group: groupName,
    version,
    plural,
    singular: kind.toLowerCase(),
    kind,
    namespaced,
    shortNames,
    verbs: CRUD,
    categories,
  }));
}

function reviews(groupName: string, version: string, rows: Array<[plural: string, kind: string, namespaced: boolean]>): ServedResource[] {
  return rows.map(([plural, kind, namespaced]) => ({
    group: groupName,
    version,
    plural,
    singular: kind.toLowerCase(),
    kind,
    namespaced,
    shortNames: [],
    verbs: ['create'],
    categories: [],
    createOnly: true,
  }));
}

export const BUILTIN_SERVED: ServedResource[] = [
  ...group('', 'v1', [
    ['configmaps', 'ConfigMap', true, ['cm']],
    ['endpoints', 'Endpoints', true, ['ep']],
    ['events', 'Event', true, ['ev']],
    ['limitranges', 'LimitRange', true, ['limits']],
    ['namespaces', 'Namespace', false, ['ns']],
    ['nodes', 'Node', false, ['no']],
    ['persistentvolumeclaims', 'PersistentVolumeClaim', true, ['pvc']],
    ['persistentvolumes', 'PersistentVolume', false, ['pv']],
    ['pods', 'Pod', true, ['po'], ['all']],
    ['podtemplates', 'PodTemplate', true],
    ['replicationcontrollers', 'ReplicationController', true, ['rc'], ['all']],
    ['resourcequotas', 'ResourceQuota', true, ['quota']],
    ['secrets', 'Secret', true],
    ['serviceaccounts', 'ServiceAccount', true, ['sa']],
    ['services', 'Service', true, ['svc'], ['all']],
  ]),
  ...group('apps', 'v1', [
    ['controllerrevisions', 'ControllerRevision', true],
    ['daemonsets', 'DaemonSet', true, ['ds'], ['all']],
    ['deployments', 'Deployment', true, ['deploy'], ['all']],
    ['replicasets', 'ReplicaSet', true, ['rs'], ['all']],
    ['statefulsets', 'StatefulSet', true, ['sts'], ['all']],
  ]),
  ...group('batch', 'v1', [
    ['cronjobs', 'CronJob', true, ['cj'], ['all']],
    ['jobs', 'Job', true, [], ['all']],
  ]),
  ...group('rbac.authorization.k8s.io', 'v1', [
    ['clusterrolebindings', 'ClusterRoleBinding', false],
    ['clusterroles', 'ClusterRole', false],
    ['rolebindings', 'RoleBinding', true],
    ['roles', 'Role', true],
  ]),
  ...group('admissionregistration.k8s.io', 'v1', [
    ['mutatingwebhookconfigurations', 'MutatingWebhookConfiguration', false, [], ['api-extensions']],
    ['validatingadmissionpolicies', 'ValidatingAdmissionPolicy', false, [], ['api-extensions']],
    ['validatingadmissionpolicybindings', 'ValidatingAdmissionPolicyBinding', false, [], ['api-extensions']],
    ['validatingwebhookconfigurations', 'ValidatingWebhookConfiguration', false, [], ['api-extensions']],
  ]),
  ...group('apiextensions.k8s.io', 'v1', [['customresourcedefinitions', 'CustomResourceDefinition', false, ['crd', 'crds'], ['api-extensions']]]),
  ...group('apiregistration.k8s.io', 'v1', [['apiservices', 'APIService', false, [], ['api-extensions']]]),
  ...group('policy', 'v1', [['poddisruptionbudgets', 'PodDisruptionBudget', true, ['pdb']]]),
  ...group('discovery.k8s.io', 'v1', [['endpointslices', 'EndpointSlice', true]]),
  ...group('coordination.k8s.io', 'v1', [['leases', 'Lease', true]]),
  ...group('networking.k8s.io', 'v1', [
    ['ingressclasses', 'IngressClass', false],
    ['ingresses', 'Ingress', true, ['ing']],
    ['networkpolicies', 'NetworkPolicy', true, ['netpol']],
  ]),
  ...reviews('authorization.k8s.io', 'v1', [
    ['localsubjectaccessreviews', 'LocalSubjectAccessReview', true],
    ['selfsubjectaccessreviews', 'SelfSubjectAccessReview', false],
    ['selfsubjectrulesreviews', 'SelfSubjectRulesReview', false],
    ['subjectaccessreviews', 'SubjectAccessReview', false],
  ]),
];

/** The served resources a CustomResourceDefinition object adds (its `served` versions). */
export function resourcesOfCrd(crd: unknown): ServedResource[] {
  const spec = (crd as { spec?: Record<string, any> }).spec;
  if (!spec?.group || !spec.names?.plural || !spec.names?.kind) return [];
  const versions: Array<{ name: string; served?: boolean }> = Array.isArray(spec.versions) ? spec.versions : [];
  return versions
    .filter((v) => v.served !== false)
    .map((v) => ({
      group: spec.group,
      version: v.name,
      plural: spec.names.plural,
      singular: spec.names.singular ?? spec.names.kind.toLowerCase(),
      kind: spec.names.kind,
      namespaced: spec.scope !== 'Cluster',
      shortNames: spec.names.shortNames ?? [],
      verbs: CRUD,
      categories: spec.names.categories ?? [],
    }));
}

/** Built-in groups in the order a real server lists them (preferred version first). */
export function groupOrder(resources: ServedResource[]): Array<{ name: string; versions: string[] }> {
  const groups = new Map<string, string[]>();
  for (const r of resources) {
    if (r.group === '') continue;
    const vs = groups.get(r.group) ?? [];
    if (!vs.includes(r.version)) vs.push(r.version);
    groups.set(r.group, vs);
  }
  return [...groups].map(([name, versions]) => ({ name, versions: sortVersions(versions) }));
}

/** Kubernetes version priority: GA > beta > alpha, higher numbers first. */
export function sortVersions(versions: string[]): string[] {
  const rank = (v: string): [number, number, number] => {
    const m = v.match(/^v(\d+)(?:(alpha|beta)(\d+))?$/);
    if (!m) return [0, 0, 0];
    const stage = m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1;
    return [stage, Number(m[1]), Number(m[3] ?? 0)];
  };
  return [...versions].sort((a, b) => {
    const [sa, ma, na] = rank(a);
    const [sb, mb, nb] = rank(b);
    return sb - sa || mb - ma || nb - na;
  });
}
