import { UserError } from '../errors.js';
import { type ObjectFinder, readLinkerdConfig } from '../kube/linkerdConfig.js';
import { LINKERD_CONFIG } from '../mesh/names.js';

export const DEFAULT_CLUSTER_DOMAIN = 'cluster.local';

/**
 * The `clusterDomain` of the control plane's linkerd-config values, `cluster.local` when empty.
 * No linkerd-config is an error, as in linkerd (the profile would name the wrong domain).
 */
export async function clusterDomainOf(reader: ObjectFinder, controlPlaneNamespace: string): Promise<string> {
  const values = await readLinkerdConfig(reader, controlPlaneNamespace);
  if (values === undefined) throw new UserError(`configmaps "${LINKERD_CONFIG}" not found`);
  const domain = values.clusterDomain;
  return typeof domain === 'string' && domain !== '' ? domain : DEFAULT_CLUSTER_DOMAIN;
}
