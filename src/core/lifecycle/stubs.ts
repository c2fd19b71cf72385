import { apiVersionOf, type ResourceType } from '../kube/resources.js';

/**
 * What `uninstall` and `prune` print for each object: just enough to name it for
 * `kubectl delete -f -`, in the shape linkerd's resource.Kubernetes marshals to.
 */
export interface StubObject {
  apiVersion: string;
  kind: string;
  metadata: { creationTimestamp: null; name: string; namespace?: string };
}

export function stubOf(apiVersion: string, kind: string, name: string, namespace?: string): StubObject {
  return { apiVersion, kind, metadata: { creationTimestamp: null, name, ...(namespace ? { namespace } : {}) } };
}

/**
 * The stub of an object listed as `t`: its kind and version are the ones asked for, never what
 * the item says of itself (a ClusterRole list cannot make a Namespace stub); its namespace is
 * kept only for a namespaced type.
 */
export function stubOfListed(t: ResourceType, o: { metadata?: { name?: string; namespace?: string } }): StubObject {
  return stubOf(apiVersionOf(t), t.kind, o.metadata?.name ?? '', t.namespaced ? o.metadata?.namespace : undefined);
}

/** `policy.linkerd.io/v1beta3` → `policy.linkerd.io`; `v1` → ``. */
export function groupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}
