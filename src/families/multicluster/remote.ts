import type { Secret } from 'kubernetes-types/core/v1.js';
import { firstLine } from '../../core/errors.js';
import type { KubeClient } from '../../core/kube/kubeClient.js';
import { connectKubeconfigText } from '../../core/kube/kubeconfigText.js';
import type { ObjectFinder } from '../../core/kube/linkerdConfig.js';
import type { StoredLink } from './linkResource.js';

/*
 * The cluster a Link points at, reached with the kubeconfig in the Link's credentials Secret
 * (`data.kubeconfig`), as the service mirror and the real `multicluster check` reach it. Each
 * way this fails is one stage, so the checks word it as the real CLI does.
 */

/** The key of the credentials Secret that holds the kubeconfig. */
export const KUBECONFIG_KEY = 'kubeconfig';

export type TargetAccess =
  | { ok: true; client: KubeClient }
  | {
      ok: false;
      /** secret: unreadable; parse: no kubeconfig key; config: kubeconfig refused; client: no client could be built. */
      stage: 'secret' | 'parse' | 'config' | 'client';
      secret: string;
      reason: string;
    };

/** The kubeconfig text of a credentials Secret, or why there is none (the real message). */
export function secretKubeconfig(secret: Secret): { text: string } | { reason: string } {
  const b64 = secret.data?.[KUBECONFIG_KEY];
  if (b64 === undefined) return { reason: 'secret should contain target cluster name as annotation mirror.linkerd.io/cluster-name' };
  return { text: Buffer.from(b64, 'base64').toString('utf8') };
}

/** Opens a client for the Link's target cluster; nothing is sent to it yet. The caller closes it. */
export async function openLinkTarget(local: ObjectFinder, link: StoredLink, o: { timeoutMs: number; env?: NodeJS.ProcessEnv }): Promise<TargetAccess> {
  const secretName = `${link.namespace}/${link.clusterCredentialsSecret}`;
  let secret: Secret | undefined;
  try {
    secret = await local.find('secrets', link.clusterCredentialsSecret, link.namespace);
  } catch (e) {
    return { ok: false, stage: 'secret', secret: secretName, reason: firstLine(e) };
  }
  if (secret === undefined) return { ok: false, stage: 'secret', secret: secretName, reason: `secrets "${link.clusterCredentialsSecret}" not found` };
  const config = secretKubeconfig(secret);
  if ('reason' in config) return { ok: false, stage: 'parse', secret: secretName, reason: config.reason };
  try {
    const client = await connectKubeconfigText(config.text, `secret ${secretName}`, { timeoutMs: o.timeoutMs, env: o.env });
    return { ok: true, client };
  } catch (e) {
    const message = firstLine(e);
    // Refusals of the kubeconfig itself (its YAML, its context, local files) are parse failures.
    const stage = message.startsWith(`secret ${secretName}: `) ? 'config' : 'client';
    return { ok: false, stage, secret: secretName, reason: message.replace(`secret ${secretName}: `, '') };
  }
}

/** The real check's wording of a failed access (`* secret: [ns/name]: …`). */
export function accessProblem(access: Extract<TargetAccess, { ok: false }>, cluster: string): string {
  switch (access.stage) {
    case 'secret':
      return `* secret: [${access.secret}]: ${access.reason}`;
    case 'parse':
      return `* secret: [${access.secret}]: could not parse config secret: ${access.reason}`;
    case 'config':
      return `* secret: [${access.secret}] cluster: [${cluster}]: unable to parse api config: ${access.reason}`;
    case 'client':
      return `* secret: [${access.secret}] cluster: [${cluster}]: could not instantiate api for target cluster: ${access.reason}`;
  }
}
