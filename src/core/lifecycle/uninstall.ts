import type { Pod } from 'kubernetes-types/core/v1.js';
import { CONTROL_PLANE_NS_LABEL, EXTENSION_LABEL } from '../mesh/names.js';
import { UserError } from '../errors.js';
import type { KubeClient } from '../kube/kubeClient.js';
import { BUILTIN_RESOURCES, type BuiltinResource } from '../kube/resources.js';
import { stubOfListed, type StubObject } from './stubs.js';

/*
 * `linkerd uninstall` (linkerd's cli/cmd/uninstall.go): refuse while extensions or meshed workloads remain (unless
 * --force), then name every cluster-scoped and RBAC object of the control plane, and its
 * namespace, for `kubectl delete`. Deleting the namespace removes the rest.
 */

export const NOTHING_TO_UNINSTALL = 'No resources found to uninstall';

/** The kinds linkerd's FetchKubernetesResources lists, in its order, with its error wording. */
const UNINSTALL_KINDS: readonly { resource: BuiltinResource; what: string }[] = [
  { resource: 'clusterroles', what: 'ClusterRole resources' },
  { resource: 'clusterrolebindings', what: 'ClusterRoleBinding resources' },
  { resource: 'roles', what: 'Roles' },
  { resource: 'rolebindings', what: 'RoleBindings' },
  { resource: 'customresourcedefinitions', what: 'CustomResourceDefinition resources' },
  { resource: 'apiservices', what: 'APIService CRDs' },
  { resource: 'mutatingwebhookconfigurations', what: 'MutatingWebhookConfigurations' },
  { resource: 'validatingwebhookconfigurations', what: 'ValidatingWebhookConfiguration' },
  { resource: 'namespaces', what: 'Namespace' },
];

export interface UninstallResult {
  objects: StubObject[];
  /** Lines for stderr (`No resources found to uninstall`). */
  notes: string[];
}

/** The refusals of `uninstall` without --force, in linkerd's words; empty when there are none. */
export async function uninstallRefusals(client: KubeClient, namespace: string): Promise<string[]> {
  const [extensionNamespaces, pods] = await Promise.all([
    client.list('namespaces', { labelSelector: EXTENSION_LABEL }),
    client.list('pods', { labelSelector: CONTROL_PLANE_NS_LABEL, limit: 500 }),
  ]);
  const extensions = new Map(extensionNamespaces.map((ns) => [ns.metadata?.name ?? '', ns.metadata?.labels?.[EXTENSION_LABEL] ?? '']));
  const refusals: string[] = [];
  if (extensions.size > 0) {
    const names = [...extensions.values()].map((e) => `* ${e}`);
    refusals.push(`Please uninstall the following extensions before uninstalling the control-plane:\n\t${names.join('\n\t')}`);
  }
  const injected = pods.filter((p: Pod) => {
    const ns = p.metadata?.namespace ?? '';
    return ns !== namespace && !extensions.get(ns);
  });
  if (injected.length > 0) {
    refusals.push(
      `Please uninject the following pods before uninstalling the control-plane:\n\t${injected.map((p) => `* ${p.metadata?.name ?? ''}`).join('\n\t')}`,
    );
  }
  return refusals;
}

/**
 * Every object of the kinds uninstall deletes that `labelSelector` selects (the control plane's
 * `linkerd.io/control-plane-ns` by default; an extension's `linkerd.io/extension in (…)`), as stubs.
 */
export async function uninstallObjects(client: KubeClient, labelSelector: string = CONTROL_PLANE_NS_LABEL): Promise<StubObject[]> {
  const lists = await Promise.all(
    UNINSTALL_KINDS.map(async ({ resource, what }) => {
      try {
        return await client.list(resource, { labelSelector, limit: 500 });
      } catch (e) {
        if (e instanceof UserError) throw new UserError(`could not fetch ${what}: ${e.message}`, { cause: e });
        throw e;
      }
    }),
  );
  return lists.flatMap((items, i) => {
    const kind = UNINSTALL_KINDS[i];
    return kind === undefined ? [] : items.map((o) => stubOfListed(BUILTIN_RESOURCES[kind.resource], o));
  });
}
