import { firstLine } from '../../core/errors.js';
import type { PeerFacts, TrustPeerSource } from '../../core/identity/peers.js';
import type { KubeClient } from '../../core/kube/kubeClient.js';
import { parseLinkerdConfigValues, type ObjectFinder } from '../../core/kube/linkerdConfig.js';
import { CONTROL_PLANE_NS_LABEL, LINKERD_CONFIG } from '../../core/mesh/names.js';
import { withCluster } from './cluster.js';
import { LINK_RESOURCE, type StoredLink, isGatewayless, storedLink } from './linkResource.js';
import { openLinkTarget, accessProblem } from './remote.js';

/*
 * The multicluster family's trust peers: every Link names a cluster our proxies reach through its
 * gateway (or, gateway-less, directly), so a trust-anchor rotation must move both together. Each peer is read through the
 * Link's own credentials (what the remote-access ClusterRole grants: linkerd-config and pods),
 * never through a context of the local kubeconfig.
 */

const record = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** `linkerd-gateway.linkerd-multicluster.serviceaccount.identity.…` → the gateway's ServiceAccount and namespace. */
function gatewayAccount(identity: string): { account: string; namespace: string } | undefined {
  const [account, namespace, kind] = identity.split('.');
  return account && namespace && kind === 'serviceaccount' ? { account, namespace } : undefined;
}

async function readTarget(remote: KubeClient, link: StoredLink): Promise<Omit<PeerFacts, 'name' | 'via'>> {
  const ns = link.targetClusterLinkerdNamespace || 'linkerd';
  const config = await remote.find('configmaps', LINKERD_CONFIG, ns);
  if (config === undefined) return { error: `configmaps "${LINKERD_CONFIG}" not found in namespace ${ns} (is Linkerd installed there?)` };
  const values = parseLinkerdConfigValues(config);
  const identity = record(values.identity);
  const issuer = record(identity.issuer);
  const facts: Omit<PeerFacts, 'name' | 'via'> = {
    anchorsPem: text(values.identityTrustAnchorsPEM),
    issuerPem: text(record(issuer.tls).crtPEM),
    issuanceLifetime: text(issuer.issuanceLifetime),
  };
  if (isGatewayless(link)) return facts;
  const gw = gatewayAccount(link.gatewayIdentity);
  if (gw === undefined) return facts;
  const pods = await remote.list('pods', { namespace: gw.namespace, labelSelector: CONTROL_PLANE_NS_LABEL });
  return { ...facts, gatewayPods: pods.filter((p) => (p.spec?.serviceAccountName ?? 'default') === gw.account) };
}

/** What one Link's target cluster trusts, read through the Link's credentials; a failure is the peer's `error`. */
export async function readLinkPeer(local: ObjectFinder, link: StoredLink, o: { timeoutMs: number; env?: NodeJS.ProcessEnv }): Promise<PeerFacts> {
  const base = { name: link.targetClusterName || link.name, via: `Link ${link.namespace}/${link.name}` };
  const access = await openLinkTarget(local, link, o);
  if (!access.ok) return { ...base, error: accessProblem(access, base.name).replace(/^\* /, '') };
  try {
    return { ...base, ...(await readTarget(access.client, link)) };
  } catch (e) {
    return { ...base, error: firstLine(e) };
  } finally {
    access.client.close();
  }
}

/** Every Link of the local cluster. */
export async function listLinks(local: KubeClient): Promise<StoredLink[]> {
  return (await local.list(LINK_RESOURCE)).map(storedLink);
}

export const linkPeers: TrustPeerSource = {
  kind: 'Link',
  read: (selection, o) =>
    withCluster(selection, async (local) => {
      let links;
      try {
        links = await listLinks(local);
      } catch (e) {
        // No Link CRD: no multicluster, no peers.
        if ((e as { kind?: string }).kind === 'notfound') return [];
        throw e;
      }
      return Promise.all(links.map((l) => readLinkPeer(local, l, o)));
    }),
};
