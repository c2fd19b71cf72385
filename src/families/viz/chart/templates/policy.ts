import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { type VizComponent, createdByAnnotation, namespacedMeta, vizLabels } from './meta.js';

/*
 * Linkerd's policy resources (CRDs, so not in kubernetes-types), as viz uses them: a Server per
 * protected port and an AuthorizationPolicy naming who may reach it, so the viz components work
 * under a default-deny inbound policy.
 */

interface PolicyObject<K extends string, S> {
  apiVersion: string;
  kind: K;
  metadata: ObjectMeta;
  spec: S;
}

export type Server = PolicyObject<'Server', { podSelector: { matchLabels: Record<string, string> }; port: string; proxyProtocol: string }>;
interface Ref {
  group?: string;
  kind: string;
  name: string;
  namespace?: string;
}
export type AuthorizationPolicy = PolicyObject<'AuthorizationPolicy', { targetRef: Ref; requiredAuthenticationRefs: Ref[] }>;
export type MeshTLSAuthentication = PolicyObject<'MeshTLSAuthentication', { identityRefs: Ref[] }>;
export type NetworkAuthentication = PolicyObject<'NetworkAuthentication', { networks: { cidr: string }[] }>;

const POLICY = 'policy.linkerd.io';

function meta(values: VizValues, ctx: VizContext, name: string, component?: VizComponent): ObjectMeta {
  return namespacedMeta(name, ctx.namespace, vizLabels(values, { component }), createdByAnnotation(values));
}

export function server(
  values: VizValues,
  ctx: VizContext,
  s: { name: string; component?: VizComponent; selector: Record<string, string>; port: string; proxyProtocol: 'HTTP/1' | 'TLS' },
): Server {
  return {
    apiVersion: `${POLICY}/v1beta3`,
    kind: 'Server',
    metadata: meta(values, ctx, s.name, s.component),
    spec: { podSelector: { matchLabels: s.selector }, port: s.port, proxyProtocol: s.proxyProtocol },
  };
}

export function authorizationPolicy(
  values: VizValues,
  ctx: VizContext,
  name: string,
  serverName: string,
  refs: Ref[],
  component?: VizComponent,
): AuthorizationPolicy {
  return {
    apiVersion: `${POLICY}/v1alpha1`,
    kind: 'AuthorizationPolicy',
    metadata: meta(values, ctx, name, component),
    spec: { targetRef: { group: POLICY, kind: 'Server', name: serverName }, requiredAuthenticationRefs: refs },
  };
}

export const networkRef = (name: string): Ref => ({ group: POLICY, kind: 'NetworkAuthentication', name });
export const meshTLSRef = (name: string): Ref => ({ group: POLICY, kind: 'MeshTLSAuthentication', name });

export function meshTLSAuthentication(
  values: VizValues,
  ctx: VizContext,
  name: string,
  serviceAccount: string,
  component?: VizComponent,
): MeshTLSAuthentication {
  return {
    apiVersion: `${POLICY}/v1alpha1`,
    kind: 'MeshTLSAuthentication',
    metadata: meta(values, ctx, name, component),
    spec: { identityRefs: [{ kind: 'ServiceAccount', name: serviceAccount }] },
  };
}

/**
 * Any address: the kubelet's and the API server's source addresses cannot be discovered, so the
 * probes and the API server's calls are admitted from everywhere (only on the ports they need).
 */
export function anyNetwork(values: VizValues, ctx: VizContext, name: string): NetworkAuthentication {
  return {
    apiVersion: `${POLICY}/v1alpha1`,
    kind: 'NetworkAuthentication',
    metadata: meta(values, ctx, name),
    spec: { networks: [{ cidr: '0.0.0.0/0' }, { cidr: '::/0' }] },
  };
}
