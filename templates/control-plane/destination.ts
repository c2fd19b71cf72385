import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type { Container } from 'kubernetes-types/core/v1.js';
import type { Values } from '../../src/core/values/index.js';
import { trustDomainOf } from '../proxy/index.js';
import type { ControlPlaneContext } from './context.js';
import { controllerContainer, controllerImage, controllerResources, type ControllerContainerSpec, extraEnv, proxiedDeployment } from './pod.js';
import { traceArgs } from './trace.js';

/** The chart's default `destinationController.meshedHttp2ClientProtobuf`: HTTP/2 keep-alives between meshed proxies. */
const MESHED_HTTP2_CLIENT_PARAMS = { keep_alive: { interval: { seconds: 10 }, timeout: { seconds: 3 }, while_idle: true } };

/** JSON with keys sorted at every level, as Helm's `toJson` writes maps. */
function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

function destinationContainer(values: Values, ctx: ControlPlaneContext): Container {
  const dc = values.destinationController;
  return controllerContainer(values, {
    name: 'destination',
    args: [
      'destination',
      '-addr=:8086',
      `-controller-namespace=${ctx.namespace}`,
      `-outbound-transport-mode=${values.proxy.outboundTransportMode}`,
      `-enable-h2-upgrade=${values.enableH2Upgrade}`,
      `-log-level=${values.controllerLogLevel}`,
      `-log-format=${values.controllerLogFormat}`,
      `-enable-endpoint-slices=${values.enableEndpointSlices}`,
      `-cluster-domain=${values.clusterDomain}`,
      `-identity-trust-domain=${trustDomainOf(values)}`,
      `-default-opaque-ports=${values.proxy.opaquePorts}`,
      `-enable-ipv6=${!values.disableIPv6}`,
      `-enable-pprof=${values.enablePprof}`,
      `--meshed-http2-client-params=${sortedJson(dc.meshedHttp2ClientProtobuf ?? MESHED_HTTP2_CLIENT_PARAMS)}`,
      ...traceArgs(values),
      ...(dc.additionalArgs ?? []),
    ],
    env: extraEnv(dc),
    ports: [
      { containerPort: 8086, name: 'dest-grpc' },
      { containerPort: 9996, name: 'dest-admin' },
    ],
    adminPort: 9996,
    probeTimeouts: dc,
    resources: controllerResources(values.destinationResources),
  });
}

function spValidatorContainer(values: Values): Container {
  const sv = values.spValidator;
  return controllerContainer(values, {
    name: 'sp-validator',
    args: ['sp-validator', `-log-level=${values.controllerLogLevel}`, `-log-format=${values.controllerLogFormat}`, `-enable-pprof=${values.enablePprof}`],
    ports: [
      { containerPort: 8443, name: 'sp-validator' },
      { containerPort: 9997, name: 'spval-admin' },
    ],
    adminPort: 9997,
    probeTimeouts: sv,
    resources: controllerResources(values.spValidatorResources),
    volumeMounts: [{ mountPath: '/var/run/linkerd/tls', name: 'sp-tls', readOnly: true }],
  });
}

/**
 * Since edge-25.8 the policy controller ships inside the controller image (run as
 * `/linkerd-policy-controller`); there is no `policy-controller` image for this release. An image
 * named in `policyController.image.name` is still used as given, with its own entrypoint.
 */
function policyImage(values: Values): Pick<ControllerContainerSpec, 'command' | 'image' | 'imagePullPolicy'> {
  const own = values.policyController.image;
  if (own.name) return { image: `${own.name}:${own.version || values.linkerdVersion}`, imagePullPolicy: own.pullPolicy };
  return { command: ['/linkerd-policy-controller'], image: controllerImage(values) };
}

function policyContainer(values: Values, ctx: ControlPlaneContext): Container {
  const pc = values.policyController;
  const listen = values.disableIPv6 ? '0.0.0.0' : '[::]';
  const args = [
    `--admin-addr=${listen}:9990`,
    `--control-plane-namespace=${ctx.namespace}`,
    `--grpc-addr=${listen}:8090`,
    `--server-addr=${listen}:9443`,
    '--server-tls-key=/var/run/linkerd/tls/tls.key',
    '--server-tls-certs=/var/run/linkerd/tls/tls.crt',
    `--cluster-networks=${values.clusterNetworks}`,
    `--identity-domain=${trustDomainOf(values)}`,
    `--cluster-domain=${values.clusterDomain}`,
    `--default-policy=${values.proxy.defaultInboundPolicy}`,
    `--log-level=${pc.logLevel || 'linkerd=info,warn'}`,
    `--log-format=${values.controllerLogFormat}`,
    `--default-opaque-ports=${values.proxy.opaquePorts}`,
    `--global-egress-network-namespace=${values.egress.globalEgressNetworkNamespace}`,
  ];
  if (pc.probeNetworks.length) args.push(`--probe-networks=${pc.probeNetworks.join(',')}`);
  return controllerContainer(values, {
    name: 'policy',
    args,
    ...policyImage(values),
    ports: [
      { containerPort: 8090, name: 'policy-grpc' },
      { containerPort: 9990, name: 'policy-admin' },
      { containerPort: 9443, name: 'policy-https' },
    ],
    adminPort: 'policy-admin',
    livenessPath: '/live',
    probeTimeouts: pc,
    // The chart falls back to destinationResources when the policy controller has none of its own.
    resources: controllerResources(pc.resources) ?? controllerResources(values.destinationResources),
    volumeMounts: [{ mountPath: '/var/run/linkerd/tls', name: 'policy-tls', readOnly: true }],
  });
}

/**
 * The destination pod: destination, ServiceProfile validator and policy controller behind one
 * proxy. `checksum` (of the destination RBAC and webhook objects) rolls the pods when their
 * serving certificates change.
 */
export function destinationDeployment(values: Values, ctx: ControlPlaneContext, checksum: string): Deployment {
  return proxiedDeployment(values, ctx, {
    component: 'destination',
    containers: [destinationContainer(values, ctx), spValidatorContainer(values), policyContainer(values, ctx)],
    volumes: [
      { name: 'sp-tls', secret: { secretName: 'linkerd-sp-validator-k8s-tls' } },
      { name: 'policy-tls', secret: { secretName: 'linkerd-policy-validator-k8s-tls' } },
    ],
    proxy: { podInboundPorts: '8086,8090,8443,9443,9990,9996,9997', proxyResources: values.destinationProxyResources },
    fullSelector: true,
    leadingAnnotations: { 'checksum/config': checksum },
    annotations: { ...values.destinationController.podAnnotations },
  });
}
