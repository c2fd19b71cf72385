import type { LabelSelector, ObjectMeta } from 'kubernetes-types/meta/v1.js';

/*
 * Linkerd policy resources (policy.linkerd.io) as the multicluster chart writes them. kubernetes-types
 * has no shapes for custom resources, so the fields used are typed here.
 */

export interface PolicyObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  spec: Record<string, unknown>;
}

export interface AuthenticationRef {
  group?: string;
  kind: string;
  name: string;
  namespace: string;
}

/** A reference to a policy.linkerd.io authentication resource. */
export function policyRef(kind: string, name: string, namespace: string): AuthenticationRef {
  return { group: 'policy.linkerd.io', kind, name, namespace };
}

/** A `Server` (v1beta3) on a named port of the selected pods; `HTTP/1` for admin ports. */
export function server(metadata: ObjectMeta, podSelector: LabelSelector, port: string, proxyProtocol?: 'HTTP/1'): PolicyObject {
  const spec: Record<string, unknown> = { podSelector, port };
  if (proxyProtocol) spec.proxyProtocol = proxyProtocol;
  return { apiVersion: 'policy.linkerd.io/v1beta3', kind: 'Server', metadata, spec };
}

/** An `AuthorizationPolicy` on a Server, requiring every listed authentication. */
export function authorizationPolicy(metadata: ObjectMeta, serverName: string, requiredAuthenticationRefs: AuthenticationRef[]): PolicyObject {
  return {
    apiVersion: 'policy.linkerd.io/v1alpha1',
    kind: 'AuthorizationPolicy',
    metadata,
    spec: { targetRef: { group: 'policy.linkerd.io', kind: 'Server', name: serverName }, requiredAuthenticationRefs },
  };
}
