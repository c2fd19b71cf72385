import * as z from 'zod';
import { bool, int, str, stringMap, toleration, uint } from '../../../core/values/schemaParts.js';
import { deepClone } from '../../../core/values/tree.js';

/*
 * The values of the linkerd2-cni chart as one strict zod schema: keys and nesting as in the
 * chart's values.yaml (so users' files and `--set` paths keep working), every object level strict
 * (a typo is an error naming the key). values.yaml leaves `nodeAffinity` and `cliVersion` out, so
 * they are optional; `image.pullPolicy` is nullable because `install-cni` sets it to null (the
 * cluster's default then applies), as linkerd's CLI does.
 */

/** The CNI plugin image the CLI pins (linkerd's `version.LinkerdCNIVersion`); the chart's own default differs. */
export const CNI_PLUGIN_VERSION = 'v1.6.8';

/** The chart's own image tag (values.yaml), which `install-cni` always replaces with CNI_PLUGIN_VERSION. */
const CHART_IMAGE_VERSION = 'v1.7.0-alpha.1';

export const DEFAULT_CNI_IMAGE = 'cr.l5d.io/linkerd/cni-plugin';

const constraint = z.strictObject({ limit: str.nullable().optional(), request: str.nullable().optional() });
const resources = z.strictObject({
  cpu: constraint.nullable().optional(),
  memory: constraint.nullable().optional(),
  'ephemeral-storage': constraint.nullable().optional(),
});

/** A free-form Kubernetes object passed through untouched (updateStrategy, nodeAffinity, an init container). */
const object = z.record(z.string(), z.unknown());

export const CniValuesSchema = z.strictObject({
  inboundProxyPort: uint,
  outboundProxyPort: uint,
  /** Comma-separated ports and ranges, after the proxy's admin and control ports. */
  ignoreInboundPorts: str,
  ignoreOutboundPorts: str,
  proxyAdminPort: uint,
  proxyControlPort: uint,
  podLabels: stringMap.nullable(),
  commonLabels: stringMap.nullable(),
  logLevel: str,
  /** Comma-separated ports; empty redirects every port. */
  portsToRedirect: str,
  proxyUID: int,
  /** Omitted from the network config when negative. */
  proxyGID: int,
  destCNINetDir: str,
  destCNIBinDir: str,
  useWaitFlag: bool,
  iptablesMode: str,
  disableIPv6: bool,
  priorityClassName: str,
  revisionHistoryLimit: int,
  updateStrategy: object.nullable(),
  enablePSP: bool,
  privileged: bool,
  tolerations: z.array(toleration).nullable(),
  nodeAffinity: object.nullable().optional(),
  image: z.strictObject({ name: str, version: str, pullPolicy: str.nullable() }),
  imagePullSecrets: z.array(z.strictObject({ name: str })).nullable(),
  extraInitContainers: z.array(object).nullable(),
  repairController: z.strictObject({
    enabled: bool,
    logLevel: str,
    logFormat: str,
    enableSecurityContext: bool,
    resources: resources.nullable(),
  }),
  resources: resources.nullable(),
  /** `linkerd.io/created-by`; the CLI sets `linkerd/cli <version>`, Helm leaves it empty. */
  cliVersion: str.optional(),
});

export type CniValues = z.infer<typeof CniValuesSchema>;
export type CniResources = NonNullable<CniValues['resources']>;

const emptyResources = (): CniResources => ({
  cpu: { limit: '', request: '' },
  memory: { limit: '', request: '' },
  'ephemeral-storage': { limit: '', request: '' },
});

const DEFAULTS: CniValues = {
  inboundProxyPort: 4143,
  outboundProxyPort: 4140,
  ignoreInboundPorts: '',
  ignoreOutboundPorts: '',
  proxyAdminPort: 4191,
  proxyControlPort: 4190,
  podLabels: {},
  commonLabels: {},
  logLevel: 'info',
  portsToRedirect: '',
  proxyUID: 2102,
  proxyGID: -1,
  destCNINetDir: '/etc/cni/net.d',
  destCNIBinDir: '/opt/cni/bin',
  useWaitFlag: false,
  iptablesMode: 'nft',
  disableIPv6: true,
  priorityClassName: '',
  revisionHistoryLimit: 10,
  updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
  enablePSP: false,
  privileged: false,
  tolerations: [{ operator: 'Exists' }],
  image: { name: DEFAULT_CNI_IMAGE, version: CHART_IMAGE_VERSION, pullPolicy: 'IfNotPresent' },
  imagePullSecrets: [],
  extraInitContainers: [],
  repairController: { enabled: false, logLevel: 'info', logFormat: 'plain', enableSecurityContext: true, resources: emptyResources() },
  resources: emptyResources(),
};

/** The chart's values.yaml, a fresh copy on each call. */
export function chartDefaults(): CniValues {
  return deepClone(DEFAULTS);
}
