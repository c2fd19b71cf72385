import { UserError } from '../../core/errors.js';
import { connectKube, type KubeClient } from '../../core/kube/kubeClient.js';
import type { KubeSelection } from '../../core/kube/kubeconfig.js';
import { openProbed } from '../../core/kube/openProbed.js';

/** A client for the selected cluster, probed with `/version`; the caller closes it. */
export async function openCluster(sel: KubeSelection): Promise<KubeClient> {
  try {
    return await openProbed(
      () => connectKube(sel),
      (c) => c.serverVersion(),
    );
  } catch (e) {
    throw new UserError(`Cannot connect to Kubernetes: ${(e as Error).message}`, { cause: e });
  }
}

/** Runs `use` with an open client, closing it whatever happens. */
export async function withCluster<T>(sel: KubeSelection, use: (client: KubeClient) => Promise<T>): Promise<T> {
  const client = await openCluster(sel);
  try {
    return await use(client);
  } finally {
    client.close();
  }
}
