import { UserError } from '../errors.js';
import type { KubeClient } from '../kube/kubeClient.js';
import { isNotFound } from '../kube/kubeError.js';

/** `enableEndpointSlices` needs the discovery.k8s.io/v1 API and at least one slice (install, upgrade, prune). */
export async function assertEndpointSlices(client: KubeClient): Promise<void> {
  let slices: unknown[];
  try {
    slices = await client.list('endpointslices', { limit: 500 });
  } catch (e) {
    if (isNotFound(e)) throw new UserError('EndpointSlice resource not found');
    throw e;
  }
  if (slices.length === 0) throw new UserError('no EndpointSlice resources exist in the cluster');
}
