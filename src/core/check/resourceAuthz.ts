import type { AccessReview, KubeClient } from '../kube/kubeClient.js';

/** `deployments.apps`, or `secrets` for the core group (Go's GroupKind.String of resource and group). */
const groupKind = (group: string, resource: string): string => (group === '' ? resource : `${resource}.${group}`);

/**
 * linkerd's ResourceAuthz: a SelfSubjectAccessReview of `review`; undefined when allowed, else
 * `not authorized to access <resource>.<group>[: <reason>]`.
 */
export async function resourceAuthz(client: KubeClient, review: AccessReview): Promise<string | undefined> {
  const r = await client.selfSubjectAccessReview(review);
  if (r.allowed) return undefined;
  const what = groupKind(review.group ?? '', review.resource);
  return r.reason ? `not authorized to access ${what}: ${r.reason}` : `not authorized to access ${what}`;
}
