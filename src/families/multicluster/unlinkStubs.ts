import type { KubeClient } from '../../core/kube/kubeClient.js';
import { stubOf, type StubObject } from '../../core/lifecycle/index.js';
import { LINK_RESOURCE, storedLink } from './linkResource.js';

/*
 * What the deprecated `unlink` prints, in its order: the legacy service mirror's RBAC, account and
 * Deployment, its probe Service when the Link has a gateway, then (unless --only-controller) the
 * credentials, the Link, its Lease, the mirror Services and the credentials Secrets in `-L`.
 */

export interface UnlinkRequest {
  clusterName: string;
  namespace: string;
  linkerdNamespace: string;
  onlyController: boolean;
}

export async function unlinkStubs(client: KubeClient, r: UnlinkRequest): Promise<StubObject[]> {
  const c = r.clusterName;
  const link = storedLink(await client.get(LINK_RESOURCE, c, r.namespace));
  const rbac = 'rbac.authorization.k8s.io/v1';
  const out: StubObject[] = [
    stubOf(rbac, 'ClusterRole', `linkerd-service-mirror-access-local-resources-${c}`),
    stubOf(rbac, 'ClusterRoleBinding', `linkerd-service-mirror-access-local-resources-${c}`),
    stubOf(rbac, 'Role', `linkerd-service-mirror-read-remote-creds-${c}`, r.namespace),
    stubOf(rbac, 'RoleBinding', `linkerd-service-mirror-read-remote-creds-${c}`, r.namespace),
    stubOf('v1', 'ServiceAccount', `linkerd-service-mirror-${c}`, r.namespace),
    stubOf('apps/v1', 'Deployment', `linkerd-service-mirror-${c}`, r.namespace),
  ];
  if (link.probePath !== '') out.push(stubOf('v1', 'Service', `probe-gateway-${c}`, r.namespace));
  if (r.onlyController) return out;
  out.push(
    stubOf('v1', 'Secret', `cluster-credentials-${c}`, r.namespace),
    stubOf(`${LINK_RESOURCE.group}/${LINK_RESOURCE.version}`, 'Link', c, r.namespace),
    stubOf('coordination.k8s.io/v1', 'Lease', `service-mirror-write-${c}`, r.namespace),
  );
  const mirrors = await client.list('services', { labelSelector: `mirror.linkerd.io/mirrored-service=true,mirror.linkerd.io/cluster-name=${c}` });
  for (const s of mirrors) out.push(stubOf('v1', 'Service', s.metadata?.name ?? '', s.metadata?.namespace));
  const secrets = await client.list('secrets', { namespace: r.linkerdNamespace, labelSelector: `multicluster.linkerd.io/cluster-name=${c}` });
  for (const s of secrets) out.push(stubOf('v1', 'Secret', s.metadata?.name ?? '', s.metadata?.namespace));
  return out;
}
