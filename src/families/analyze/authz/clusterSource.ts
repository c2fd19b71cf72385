import type { Pod } from 'kubernetes-types/core/v1.js';
import type { KubeClient } from '../../../core/kube/kubeClient.js';
import type { ResourceType } from '../../../core/kube/resources.js';
import { PromiseMemo } from '../../../core/mesh/promiseMemo.js';
import type { AuthzSource, Body, PodView } from './rows.js';

/*
 * `linkerd authz` against the cluster: the versions the real CLI reads (ServerAuthorization
 * v1beta1, AuthorizationPolicy and HTTPRoute v1alpha1, Server v1beta3), scoped to one namespace.
 * The namespace's Servers are listed once and shared by every selector and Namespace target.
 */

const policy = (plural: string, kind: string, version: string): ResourceType => ({ group: 'policy.linkerd.io', version, plural, kind, namespaced: true });

const SERVERS = policy('servers', 'Server', 'v1beta3');
const SERVER_AUTHORIZATIONS = policy('serverauthorizations', 'ServerAuthorization', 'v1beta1');
const AUTHORIZATION_POLICIES = policy('authorizationpolicies', 'AuthorizationPolicy', 'v1alpha1');
const HTTP_ROUTES = policy('httproutes', 'HTTPRoute', 'v1alpha1');

export function clusterAuthzSource(kube: KubeClient, namespace: string): AuthzSource {
  const memo = new PromiseMemo();
  const servers = () => memo.get('servers', async () => (await kube.list(SERVERS, { namespace })) as Body[]);
  return {
    serverAuthorizations: async () => await kube.list(SERVER_AUTHORIZATIONS, { namespace }),
    authorizationPolicies: async () => await kube.list(AUTHORIZATION_POLICIES, { namespace }),
    server: async (name) => await kube.get(SERVERS, name, namespace),
    servers,
    httpRoute: async (name) => await kube.get(HTTP_ROUTES, name, namespace),
  };
}

export function podView(pod: Pod): PodView {
  const containers = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  return {
    labels: pod.metadata?.labels ?? {},
    ports: containers.flatMap((c) => (c.ports ?? []).map((p) => ({ name: p.name, number: p.containerPort }))),
  };
}
