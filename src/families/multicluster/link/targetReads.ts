import type { Cluster, Context } from '@kubernetes/client-node';
import { UserError } from '../../../core/errors.js';
import type { KubeClient } from '../../../core/kube/kubeClient.js';
import { loadKubeConfig, type KubeSelection } from '../../../core/kube/kubeconfig.js';
import { readLinkerdConfig } from '../../../core/kube/linkerdConfig.js';
import type { LinkGenOptions, LinkGenReads, TargetKubeconfig } from './input.js';
import { linkMessages } from './messages.js';

/*
 * link-gen's reads of the target cluster, in the real command's order: linkerd-config, the
 * remote-access ServiceAccount, the token Secrets, the gateway Service; and the target's
 * kubeconfig context, in the file's own spelling, for the credentials the Secrets carry.
 */

/** A kubeconfig cluster entry as client-go writes it (client-node renames the fields). */
function clusterEntry(c: Cluster): TargetKubeconfig['cluster'] {
  return {
    ...(c.caData ? { 'certificate-authority-data': c.caData } : {}),
    ...(c.caFile ? { 'certificate-authority': c.caFile } : {}),
    ...(c.skipTLSVerify ? { 'insecure-skip-tls-verify': true } : {}),
    ...(c.proxyUrl ? { 'proxy-url': c.proxyUrl } : {}),
    server: c.server,
    ...(c.tlsServerName ? { 'tls-server-name': c.tlsServerName } : {}),
  };
}

function contextEntry(c: Context): TargetKubeconfig['context'] {
  return { cluster: c.cluster, ...(c.namespace ? { namespace: c.namespace } : {}), user: c.user };
}

/** The selected context of the target's kubeconfig (`--context` over its current one). */
export async function targetKubeconfig(sel: KubeSelection, env?: NodeJS.ProcessEnv): Promise<TargetKubeconfig> {
  const k = await loadKubeConfig(sel, env);
  return { currentContext: k.contextName, context: contextEntry(k.context), cluster: clusterEntry(k.cluster) };
}

type ReadOptions = Pick<LinkGenOptions, 'linkerdNamespace' | 'namespace' | 'serviceAccountName' | 'gateway' | 'gatewayName' | 'gatewayNamespace'>;

/** Every read link-gen makes of the target, through one client (each request under its deadline). */
export async function readLinkGenTarget(client: KubeClient, kubeconfig: TargetKubeconfig, o: ReadOptions): Promise<LinkGenReads> {
  const linkerdConfigValues = await readLinkerdConfig(client, o.linkerdNamespace);
  if (!linkerdConfigValues) throw new UserError(linkMessages.noLinkerd());
  const serviceAccount = await client.get('serviceaccounts', o.serviceAccountName, o.namespace);
  const tokenSecrets = await client.list('secrets', { namespace: o.namespace, fieldSelector: 'type=kubernetes.io/service-account-token' });
  const gatewayService = o.gateway ? await client.get('services', o.gatewayName, o.gatewayNamespace) : undefined;
  return { linkerdConfigValues, serviceAccount, tokenSecrets, kubeconfig, ...(gatewayService ? { gatewayService } : {}) };
}
