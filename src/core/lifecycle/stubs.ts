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

/** A listed object's stub (its namespace kept only when `namespaced`). */
export function stubOfObject(o: { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string } }, namespaced: boolean): StubObject {
  return stubOf(o.apiVersion ?? '', o.kind ?? '', o.metadata?.name ?? '', namespaced ? o.metadata?.namespace : undefined);
}

/** `policy.linkerd.io/v1beta3` → `policy.linkerd.io`; `v1` → ``. */
export function groupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}
