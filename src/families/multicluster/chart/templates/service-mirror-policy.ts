import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import type { MulticlusterValues } from '../values.js';
import type { MulticlusterContext } from './context.js';
import { EXTENSION, EXTENSION_LABEL, labels, namespaced } from './metadata.js';
import { type PolicyObject, authorizationPolicy, server } from './policy.js';
import { ADMIN_PORT_NAME } from '../../../../core/mesh/names.js';

/*
 * The chart's service-mirror-policy.yaml: the admin ports of the extension's pods (proxies and the
 * three kinds of service mirror) admit only viz's Prometheus, so `linkerd mc gateways` and viz can
 * scrape them. The chart hard-codes ServiceAccount `prometheus` in `linkerd-viz`.
 */

interface AdminServer {
  name: string;
  /** The `component` label of the Server and its policy, when it has one. */
  component?: string;
  podSelector: LabelSelector;
  port: string;
}

const ADMIN_SERVERS: readonly AdminServer[] = [
  { name: ADMIN_PORT_NAME, podSelector: { matchLabels: { [EXTENSION_LABEL]: EXTENSION } }, port: ADMIN_PORT_NAME },
  { name: 'service-mirror', component: 'linkerd-service-mirror', podSelector: { matchLabels: { component: 'linkerd-service-mirror' } }, port: 'svcmi-admin' },
  { name: 'controller', component: 'controller', podSelector: { matchLabels: { component: 'controller' } }, port: 'ctrl-admin' },
  {
    name: 'local-service-mirror',
    component: 'local-service-mirror',
    podSelector: { matchLabels: { component: 'local-service-mirror' } },
    port: 'locsm-admin',
  },
];

export function serviceMirrorPolicy(values: MulticlusterValues, ctx: MulticlusterContext): PolicyObject[] {
  return ADMIN_SERVERS.flatMap((s) => {
    const meta = () => namespaced(s.name, ctx, labels(values, s.component ? { component: s.component } : {}));
    return [
      server(meta(), structuredClone(s.podSelector), s.port, 'HTTP/1'),
      authorizationPolicy(meta(), s.name, [{ kind: 'ServiceAccount', name: 'prometheus', namespace: 'linkerd-viz' }]),
    ];
  });
}
