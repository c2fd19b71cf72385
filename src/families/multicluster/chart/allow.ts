import { multiclusterNamespace } from './templates/namespace.js';
import { remoteAccess } from './templates/remote-access.js';
import { defaults } from './values.js';

/*
 * `multicluster allow`: the chart's namespace and remote-access templates alone, in the given
 * namespace, for one more remote-access identity. The real command renders these without the
 * chart's values.yaml, so no commonLabels or cniEnabled apply: the defaults' empty ones stand in.
 */

export interface AllowInput {
  namespace: string;
  serviceAccountName: string;
  version: string;
}

export function allowObjects(input: AllowInput): object[] {
  const values = defaults(input.version);
  values.gateway.enabled = false;
  values.remoteMirrorServiceAccount = true;
  values.remoteMirrorServiceAccountName = input.serviceAccountName;
  values.commonLabels = {};
  values.cniEnabled = false;
  const ctx = { namespace: input.namespace, releaseService: 'CLI' as const };
  return [...multiclusterNamespace(values, ctx), ...remoteAccess(values, ctx)];
}
