import * as z from 'zod';
import type { FlagSpec } from '../../../cli/kit/flags.js';
import { asInt } from '../../../core/values/flagValues.js';
import type { LinkGenOptions } from '../link/input.js';
import { LINK_GEN_DEFAULTS } from '../link/input.js';

/** link-gen's flags (the deprecated `link` has these and more), with the real defaults and help. */
export const LINK_GEN_FLAGS: readonly FlagSpec[] = [
  { name: 'namespace', type: 'string', default: LINK_GEN_DEFAULTS.namespace, help: 'The namespace for the service account', completion: 'namespaces' },
  { name: 'cluster-name', type: 'string', default: '', help: 'Cluster name' },
  { name: 'api-server-address', type: 'string', default: '', help: 'The api server address of the target cluster' },
  {
    name: 'service-account-name',
    type: 'string',
    default: LINK_GEN_DEFAULTS.serviceAccountName,
    help: 'The name of the service account associated with the credentials',
  },
  { name: 'gateway-name', type: 'string', default: LINK_GEN_DEFAULTS.gatewayName, help: 'The name of the gateway service' },
  {
    name: 'gateway-namespace',
    type: 'string',
    default: LINK_GEN_DEFAULTS.gatewayNamespace,
    help: 'The namespace of the gateway service',
    completion: 'namespaces',
  },
  {
    name: 'selector',
    short: 'l',
    type: 'string',
    default: LINK_GEN_DEFAULTS.selector,
    help: 'Selector (label query) to filter which services in the target cluster to mirror',
  },
  {
    name: 'remote-discovery-selector',
    type: 'string',
    default: LINK_GEN_DEFAULTS.remoteDiscoverySelector,
    help: 'Selector (label query) to filter which services in the target cluster to mirror in remote discovery mode',
  },
  {
    name: 'federated-service-selector',
    type: 'string',
    default: LINK_GEN_DEFAULTS.federatedServiceSelector,
    help: 'Selector (label query) for federated service members in the target cluster',
  },
  {
    name: 'gateway-addresses',
    type: 'string',
    default: '',
    help: 'If specified, overwrites gateway addresses when gateway service is not type LoadBalancer (comma separated list)',
  },
  { name: 'gateway-port', type: 'int', default: 0, help: 'If specified, overwrites gateway port when gateway service is not type LoadBalancer' },
  { name: 'excluded-annotations', type: 'strings', default: [], help: 'Annotations to exclude when mirroring services' },
  { name: 'excluded-labels', type: 'strings', default: [], help: 'Labels to exclude when mirroring services' },
  {
    name: 'gateway',
    type: 'bool',
    default: true,
    help: 'If false, allows a link to be created against a cluster that does not have a gateway service',
  },
  { name: 'output', short: 'o', type: 'string', default: 'yaml', help: 'Output format. One of: json|yaml' },
];

const LinkGenFlags = z.object({
  namespace: z.string(),
  clusterName: z.string(),
  apiServerAddress: z.string(),
  serviceAccountName: z.string(),
  gatewayName: z.string(),
  gatewayNamespace: z.string(),
  selector: z.string(),
  remoteDiscoverySelector: z.string(),
  federatedServiceSelector: z.string(),
  gatewayAddresses: z.string(),
  gatewayPort: z.union([z.string(), z.number()]),
  excludedAnnotations: z.array(z.string()),
  excludedLabels: z.array(z.string()),
  gateway: z.boolean(),
  output: z.string(),
});

/** pflag string slices: each occurrence is split at commas. */
const slice = (values: readonly string[]) => values.flatMap((v) => (v === '' ? [] : v.split(',')));

/** The parsed flags as link-gen's options (the output format apart). */
export function linkGenFlagOptions(flags: Record<string, unknown>, linkerdNamespace: string, cliVersion: string): { options: LinkGenOptions; output: string } {
  const f = LinkGenFlags.parse(flags);
  const gatewayPort = asInt({ name: 'gateway-port', unsigned: true }, String(f.gatewayPort));
  return {
    output: f.output,
    options: {
      clusterName: f.clusterName,
      namespace: f.namespace,
      linkerdNamespace,
      apiServerAddress: f.apiServerAddress,
      serviceAccountName: f.serviceAccountName,
      gatewayName: f.gatewayName,
      gatewayNamespace: f.gatewayNamespace,
      selector: f.selector,
      remoteDiscoverySelector: f.remoteDiscoverySelector,
      federatedServiceSelector: f.federatedServiceSelector,
      gatewayAddresses: f.gatewayAddresses,
      gatewayPort,
      excludedAnnotations: slice(f.excludedAnnotations),
      excludedLabels: slice(f.excludedLabels),
      gateway: f.gateway,
      cliVersion,
    },
  };
}
