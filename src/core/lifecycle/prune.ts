import type { RenderedObject } from '../../../templates/control-plane/index.js';
import { CONTROL_PLANE_NS_LABEL } from '../mesh/names.js';
import { UserError } from '../errors.js';
import type { KubeClient } from '../kube/kubeClient.js';
import { isKubeError } from '../kube/kubeError.js';
import type { ResourceType } from '../kube/resources.js';
import { groupOf, stubOfListed, type StubObject } from './stubs.js';

/*
 * `linkerd prune` (linkerd's cli/cmd/prune.go): what the cluster holds with the control plane's label that the
 * current release would not render (left over from an older version), for `kubectl delete`.
 */

const ns = (group: string, version: string, plural: string, kind: string): ResourceType => ({ group, version, plural, kind, namespaced: true });
const cluster = (group: string, version: string, plural: string, kind: string): ResourceType => ({ group, version, plural, kind, namespaced: false });

/** linkerd's prunable kinds, in its order: namespaced ones (all namespaces), then cluster-scoped. */
export const PRUNABLE_KINDS: readonly ResourceType[] = [
  ns('', 'v1', 'configmaps', 'ConfigMap'),
  ns('batch', 'v1', 'cronjobs', 'CronJob'),
  ns('apps', 'v1', 'daemonsets', 'DaemonSet'),
  ns('apps', 'v1', 'deployments', 'Deployment'),
  ns('batch', 'v1', 'jobs', 'Job'),
  ns('policy.linkerd.io', 'v1alpha1', 'meshtlsauthentications', 'MeshTLSAuthentication'),
  ns('policy.linkerd.io', 'v1alpha1', 'networkauthentications', 'NetworkAuthentication'),
  ns('', 'v1', 'replicationcontrollers', 'ReplicationController'),
  ns('', 'v1', 'secrets', 'Secret'),
  ns('', 'v1', 'services', 'Service'),
  ns('linkerd.io', 'v1alpha2', 'serviceprofiles', 'ServiceProfile'),
  ns('apps', 'v1', 'statefulsets', 'StatefulSet'),
  ns('rbac.authorization.k8s.io', 'v1', 'roles', 'Role'),
  ns('rbac.authorization.k8s.io', 'v1', 'rolebindings', 'RoleBinding'),
  ns('', 'v1', 'serviceaccounts', 'ServiceAccount'),
  ns('policy', 'v1', 'poddisruptionbudgets', 'PodDisruptionBudget'),
  ns('policy.linkerd.io', 'v1beta3', 'servers', 'Server'),
  ns('policy.linkerd.io', 'v1beta1', 'serverauthorizations', 'ServerAuthorization'),
  ns('policy.linkerd.io', 'v1alpha1', 'authorizationpolicies', 'AuthorizationPolicy'),
  ns('multicluster.linkerd.io', 'v1alpha3', 'links', 'Link'),
  ns('policy.linkerd.io', 'v1beta3', 'httproutes', 'HTTPRoute'),
  cluster('rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole'),
  cluster('rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', 'ClusterRoleBinding'),
  cluster('apiregistration.k8s.io', 'v1', 'apiservices', 'APIService'),
  cluster('admissionregistration.k8s.io', 'v1', 'mutatingwebhookconfigurations', 'MutatingWebhookConfiguration'),
  cluster('admissionregistration.k8s.io', 'v1', 'validatingwebhookconfigurations', 'ValidatingWebhookConfiguration'),
  cluster('apiextensions.k8s.io', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition'),
];

/** Group, kind, namespace and name: how prune tells a rendered object from a listed one. */
function identity(apiVersion: string, kind: string, name: string, namespace: string | undefined): string {
  return JSON.stringify([groupOf(apiVersion), kind, namespace ?? '', name]);
}

/**
 * The objects matching `labelSelector` (the control plane's label by default) that `expected` (the rendered control plane and CRDs) does
 * not contain. A kind the cluster does not serve (no multicluster, say) is skipped, as linkerd does.
 */
export async function prunableObjects(
  client: KubeClient,
  expected: readonly Pick<RenderedObject, 'apiVersion' | 'kind' | 'metadata'>[],
  labelSelector: string = CONTROL_PLANE_NS_LABEL,
): Promise<StubObject[]> {
  const wanted = new Set(expected.map((o) => identity(o.apiVersion, o.kind, o.metadata.name ?? '', o.metadata.namespace)));
  const lists = await Promise.all(
    PRUNABLE_KINDS.map(async (kind) => {
      try {
        return await client.list(kind, { labelSelector, limit: 500 });
      } catch (e) {
        if (isKubeError(e) && e.kind === 'notfound') return [];
        if (e instanceof UserError) throw new UserError(`error fetching resources: ${e.message}`, { cause: e });
        throw e;
      }
    }),
  );
  return lists.flatMap((items, i) => {
    const t = PRUNABLE_KINDS[i];
    if (t === undefined) return [];
    return items.map((o) => stubOfListed(t, o)).filter((s) => !wanted.has(identity(s.apiVersion, s.kind, s.metadata.name, s.metadata.namespace)));
  });
}
