import { isNotFound } from '../../core/kube/kubeError.js';
import { readLinkerdConfig } from '../../core/kube/linkerdConfig.js';
import { TRUST_DOMAIN } from './mesh.js';
import type { KubeClient } from '../../core/kube/kubeClient.js';
import type { BuiltinResource, ResourceType } from '../../core/kube/resources.js';
import { CLUSTER_ORIGIN, inputObject, record, type InputObject } from './objects.js';

/*
 * `--use-cluster`: the live objects the rules resolve against, one paged LIST per resource type
 * (cluster-wide, or with `-n` one per namespace of `-n` and of the files' objects), merged under the files' objects: an object in a file replaces the cluster's of
 * the same kind, namespace and name, so a change can be analyzed before it is applied. Pods owned
 * by a controller are left out: their workload's template stands for them. A policy resource type
 * the cluster does not serve (Linkerd's CRDs not installed) has nothing to list.
 */

const BUILTINS: readonly BuiltinResource[] = [
  'namespaces',
  'serviceaccounts',
  'services',
  'pods',
  'deployments',
  'statefulsets',
  'daemonsets',
  'replicasets',
  'jobs',
  'cronjobs',
];

const policy = (plural: string, kind: string, version: string): ResourceType => ({ group: 'policy.linkerd.io', version, plural, kind, namespaced: true });

const POLICY_TYPES: readonly ResourceType[] = [
  policy('servers', 'Server', 'v1beta3'),
  policy('serverauthorizations', 'ServerAuthorization', 'v1beta1'),
  policy('authorizationpolicies', 'AuthorizationPolicy', 'v1alpha1'),
  policy('meshtlsauthentications', 'MeshTLSAuthentication', 'v1alpha1'),
  policy('networkauthentications', 'NetworkAuthentication', 'v1alpha1'),
  policy('httproutes', 'HTTPRoute', 'v1beta3'),
  { group: 'gateway.networking.k8s.io', version: 'v1', plural: 'httproutes', kind: 'HTTPRoute', namespaced: true },
  { group: 'gateway.networking.k8s.io', version: 'v1', plural: 'grpcroutes', kind: 'GRPCRoute', namespaced: true },
];

/** Objects per page of each LIST. */
const PAGE = 500;

const identity = (o: InputObject) => `${o.group}/${o.kind}/${o.namespace}/${o.name}`;

/**
 * The cluster's objects: with `namespaces` undefined, one cluster-wide LIST per resource type;
 * otherwise one LIST per resource type in each of those namespaces (and one of Namespaces, kept
 * to those named).
 */
export async function clusterObjects(kube: KubeClient, namespaces: readonly string[] | undefined): Promise<InputObject[]> {
  const out: InputObject[] = [];
  const scope = namespaces === undefined ? undefined : new Set(namespaces);
  const owned = (o: InputObject) => {
    const refs = record(o.body.metadata).ownerReferences;
    return Array.isArray(refs) && refs.length > 0;
  };
  const add = (items: readonly unknown[], namespace: string | undefined) => {
    for (const item of items) {
      const o = inputObject(item, CLUSTER_ORIGIN, namespace ?? 'default');
      if (!o) continue;
      if ((o.kind === 'Pod' || o.kind === 'ReplicaSet') && owned(o)) continue;
      if (o.kind === 'Namespace' && scope !== undefined && !scope.has(o.name)) continue;
      out.push(o);
    }
  };
  const each = async (list: (namespace: string | undefined) => Promise<unknown[]>) => {
    if (scope === undefined) add(await list(undefined), undefined);
    else for (const ns of scope) add(await list(ns), ns);
  };
  for (const r of BUILTINS) {
    if (r === 'namespaces') add(await kube.list(r, { limit: PAGE }), undefined);
    else await each((namespace) => kube.list(r, { namespace, limit: PAGE }));
  }
  for (const t of POLICY_TYPES) {
    try {
      await each((namespace) => kube.list(t, { namespace, limit: PAGE }));
    } catch (e) {
      // Not served here: the CRD (or that version of it) is not installed.
      if (isNotFound(e)) continue;
      throw e;
    }
  }
  return out;
}

/**
 * The namespaces `--use-cluster -n NS` reads: NS and every namespace the files' objects are in
 * (or, for a Namespace object, name), sorted. Without `-n`, undefined: the whole cluster is read.
 */
export function clusterScope(namespace: string | undefined, files: readonly InputObject[]): string[] | undefined {
  if (namespace === undefined) return undefined;
  const out = new Set([namespace]);
  for (const o of files) {
    const ns = o.kind === 'Namespace' && o.group === '' ? o.name : o.namespace;
    // A cluster-scoped object (a ClusterRole, a CRD) names no namespace: it widens nothing.
    if (ns !== '') out.add(ns);
  }
  return [...out].sort();
}

/**
 * The installed control plane's trust domain and default inbound policy, from its linkerd-config
 * (the chart's defaults when it is not installed).
 */
export async function clusterMesh(kube: KubeClient, controlPlaneNamespace: string): Promise<{ trustDomain: string; defaultPolicy?: string }> {
  const values = await readLinkerdConfig(kube, controlPlaneNamespace);
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const trustDomain = text(values?.identityTrustDomain) ?? text(values?.clusterDomain) ?? TRUST_DOMAIN;
  return { trustDomain, defaultPolicy: text(record(values?.proxy).defaultInboundPolicy) };
}

/** The files' objects and the cluster's, the files winning on the same kind, namespace and name. */
export function mergeObjects(files: readonly InputObject[], cluster: readonly InputObject[]): InputObject[] {
  const fromFiles = new Set(files.map(identity));
  // A Server in a file replaces the cluster's whatever the version it is written in.
  return [...files, ...cluster.filter((o) => !fromFiles.has(identity(o)))];
}
