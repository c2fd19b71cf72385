import type { ObjectFinder } from '../kube/linkerdConfig.js';
import { readLinkerdConfig } from '../kube/linkerdConfig.js';

export const DEFAULT_CLUSTER_DOMAIN = 'cluster.local';

/** The `clusterDomain` of the control plane's linkerd-config values, `cluster.local` when unset or empty. */
export async function clusterDomainOf(reader: ObjectFinder, controlPlaneNamespace: string): Promise<string> {
  const values = await readLinkerdConfig(reader, controlPlaneNamespace);
  const domain = values?.clusterDomain;
  return typeof domain === 'string' && domain !== '' ? domain : DEFAULT_CLUSTER_DOMAIN;
}
