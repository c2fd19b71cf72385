import { LINKERD_VERSION } from '../../core/version.js';
import { ADMIN_PORT_NAME, CONTROL_PLANE_NS_LABEL, EXTENSION_LABEL } from '../../core/mesh/names.js';
import { VIZ_NAMESPACE } from './chart/templates/context.js';

/*
 * `viz allow-scrapes -n NS` (linkerd's viz/cmd/allow-scrapes.go): under a default-deny policy,
 * the policy that lets Prometheus scrape every meshed proxy's /metrics in NS and the kubelet reach
 * /live and /ready. The real command's annotation key is `linkerd-io/created-by` (sic), kept so
 * its objects stay the same.
 */

const POLICY = 'policy.linkerd.io';

function meta(name: string, namespace: string, version: string) {
  return { name, namespace, annotations: { 'linkerd-io/created-by': `linkerd-viz ${version}` }, labels: { [EXTENSION_LABEL]: 'viz' } };
}

const adminServer = { name: 'proxy-admin', kind: 'Server', group: POLICY };

export function allowScrapesObjects(namespace: string, version: string = LINKERD_VERSION): object[] {
  return [
    {
      apiVersion: `${POLICY}/v1beta3`,
      kind: 'Server',
      metadata: meta('proxy-admin', namespace, version),
      spec: {
        podSelector: { matchExpressions: [{ key: CONTROL_PLANE_NS_LABEL, operator: 'Exists' }] },
        port: ADMIN_PORT_NAME,
        proxyProtocol: 'HTTP/1',
      },
    },
    {
      apiVersion: `${POLICY}/v1alpha1`,
      kind: 'HTTPRoute',
      metadata: meta('proxy-metrics', namespace, version),
      spec: { parentRefs: [adminServer], rules: [{ matches: [{ path: { value: '/metrics' } }] }] },
    },
    {
      apiVersion: `${POLICY}/v1alpha1`,
      kind: 'HTTPRoute',
      metadata: meta('proxy-probes', namespace, version),
      spec: { parentRefs: [adminServer], rules: [{ matches: [{ path: { value: '/live' } }, { path: { value: '/ready' } }] }] },
    },
    {
      apiVersion: `${POLICY}/v1alpha1`,
      kind: 'AuthorizationPolicy',
      metadata: meta('prometheus-scrape', namespace, version),
      spec: {
        targetRef: { group: POLICY, kind: 'HTTPRoute', name: 'proxy-metrics' },
        requiredAuthenticationRefs: [{ kind: 'ServiceAccount', name: 'prometheus', namespace: VIZ_NAMESPACE }],
      },
    },
    {
      apiVersion: `${POLICY}/v1alpha1`,
      kind: 'AuthorizationPolicy',
      metadata: meta('proxy-probes', namespace, version),
      spec: {
        targetRef: { group: POLICY, kind: 'HTTPRoute', name: 'proxy-probes' },
        requiredAuthenticationRefs: [{ kind: 'NetworkAuthentication', group: POLICY, name: 'kubelet', namespace: VIZ_NAMESPACE }],
      },
    },
  ];
}
