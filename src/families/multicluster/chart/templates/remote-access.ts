import type { Secret, ServiceAccount } from 'kubernetes-types/core/v1.js';
import type { ClusterRole, ClusterRoleBinding } from 'kubernetes-types/rbac/v1.js';
import type { MulticlusterValues } from '../values.js';
import type { MulticlusterContext } from './context.js';
import { createdBy, labels, namespaced } from './metadata.js';
import { clusterRole, clusterRoleBinding, rule, serviceAccount } from './rbac.js';
import { LINKERD_CONFIG } from '../../../../core/mesh/names.js';

/*
 * The chart's remote-access-service-mirror-rbac.yaml: for each remote-access name, the identity a
 * source cluster's service mirror uses to read this cluster — a ClusterRole to watch what it
 * mirrors (and read linkerd-config), the ServiceAccount, its long-lived token Secret (which
 * link-gen copies into the credentials it prints) and the binding.
 */

/** `remoteMirrorServiceAccountName` as a list: a list as given, a string split on commas. */
export function remoteAccessNames(values: MulticlusterValues): string[] {
  const names = values.remoteMirrorServiceAccountName;
  return Array.isArray(names) ? [...names] : names.split(',');
}

const readOnly = ['list', 'get', 'watch'];

function remoteAccessRules() {
  return [
    rule(['apps'], ['replicasets'], readOnly),
    rule(['batch'], ['jobs'], readOnly),
    rule([''], ['pods', 'endpoints', 'services'], readOnly),
    rule(['discovery.k8s.io'], ['endpointslices'], readOnly),
    rule(['policy.linkerd.io'], ['servers'], readOnly),
    rule([''], ['configmaps'], ['get'], [LINKERD_CONFIG]),
    rule([''], ['events'], ['create', 'patch']),
  ];
}

/** The Secret the token controller fills with the ServiceAccount's token. */
function tokenSecret(name: string, values: MulticlusterValues, ctx: MulticlusterContext): Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: namespaced(`${name}-token`, ctx, labels(values), { 'kubernetes.io/service-account.name': name, ...createdBy(values) }),
    type: 'kubernetes.io/service-account-token',
  };
}

export function remoteAccess(values: MulticlusterValues, ctx: MulticlusterContext): (ClusterRole | ServiceAccount | Secret | ClusterRoleBinding)[] {
  if (!values.remoteMirrorServiceAccount) return [];
  return remoteAccessNames(values).flatMap((name) => [
    clusterRole(name, labels(values), remoteAccessRules(), createdBy(values)),
    serviceAccount(name, values, ctx, labels(values), createdBy(values)),
    tokenSecret(name, values, ctx),
    clusterRoleBinding(name, labels(values), name, name, ctx, createdBy(values)),
  ]);
}
