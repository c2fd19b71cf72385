import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type { Container, EnvVar } from 'kubernetes-types/core/v1.js';
import type { Values } from '../../src/core/values/index.js';
import { trustDomainOf } from '../proxy/index.js';
import type { ControlPlaneContext } from './context.js';
import {
  controllerImage,
  controllerResources,
  controllerSecurityContext,
  controlPlaneDeployment,
  controlPlanePodSpec,
  httpProbe,
  kubeApiAccessMount,
  withControlPlaneProxy,
} from './pod.js';
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
  const c: Container = {
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
    image: controllerImage(values),
    imagePullPolicy: values.imagePullPolicy,
    livenessProbe: httpProbe('/ping', 9996, { initialDelaySeconds: 10, timeoutSeconds: dc.livenessProbe.timeoutSeconds }),
    name: 'destination',
    ports: [
      { containerPort: 8086, name: 'dest-grpc' },
      { containerPort: 9996, name: 'dest-admin' },
    ],
    readinessProbe: httpProbe('/ready', 9996, { failureThreshold: 7, timeoutSeconds: dc.readinessProbe.timeoutSeconds }),
  };
  const env = [...((dc.additionalEnv ?? []) as EnvVar[]), ...((dc.experimentalEnv ?? []) as EnvVar[])];
  if (env.length) c.env = env;
  const resources = controllerResources(values.destinationResources);
  if (resources) c.resources = resources;
  c.securityContext = controllerSecurityContext(values);
  c.volumeMounts = [kubeApiAccessMount()];
  return c;
}

function spValidatorContainer(values: Values): Container {
  const sv = values.spValidator;
  const c: Container = {
    args: ['sp-validator', `-log-level=${values.controllerLogLevel}`, `-log-format=${values.controllerLogFormat}`, `-enable-pprof=${values.enablePprof}`],
    image: controllerImage(values),
    imagePullPolicy: values.imagePullPolicy,
    livenessProbe: httpProbe('/ping', 9997, { initialDelaySeconds: 10, timeoutSeconds: sv.livenessProbe.timeoutSeconds }),
    name: 'sp-validator',
    ports: [
      { containerPort: 8443, name: 'sp-validator' },
      { containerPort: 9997, name: 'spval-admin' },
    ],
    readinessProbe: httpProbe('/ready', 9997, { failureThreshold: 7, timeoutSeconds: sv.readinessProbe.timeoutSeconds }),
  };
  const resources = controllerResources(values.spValidatorResources);
  if (resources) c.resources = resources;
  c.securityContext = controllerSecurityContext(values);
  c.volumeMounts = [{ mountPath: '/var/run/linkerd/tls', name: 'sp-tls', readOnly: true }, kubeApiAccessMount()];
  return c;
}

/** The policy controller ships in the controller image; it serves policy (8090) and its validating webhook (9443). */
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
  const c: Container = {
    args,
    command: ['/linkerd-policy-controller'],
    image: controllerImage(values),
    imagePullPolicy: pc.image.pullPolicy || values.imagePullPolicy,
    livenessProbe: httpProbe('/live', 'policy-admin', { initialDelaySeconds: 10, timeoutSeconds: pc.livenessProbe.timeoutSeconds }),
    name: 'policy',
    ports: [
      { containerPort: 8090, name: 'policy-grpc' },
      { containerPort: 9990, name: 'policy-admin' },
      { containerPort: 9443, name: 'policy-https' },
    ],
    readinessProbe: httpProbe('/ready', 'policy-admin', { failureThreshold: 7, timeoutSeconds: pc.readinessProbe.timeoutSeconds }),
  };
  // The chart falls back to destinationResources when the policy controller has none of its own.
  const resources = controllerResources(pc.resources) ?? controllerResources(values.destinationResources);
  if (resources) c.resources = resources;
  c.securityContext = controllerSecurityContext(values);
  c.volumeMounts = [{ mountPath: '/var/run/linkerd/tls', name: 'policy-tls', readOnly: true }, kubeApiAccessMount()];
  return c;
}

/**
 * The destination pod: destination, ServiceProfile validator and policy controller behind one
 * proxy. `checksum` (of the destination RBAC and webhook objects) rolls the pods when their
 * serving certificates change.
 */
export function destinationDeployment(values: Values, ctx: ControlPlaneContext, checksum: string): Deployment {
  const pod = controlPlanePodSpec(values, {
    component: 'destination',
    serviceAccountName: 'linkerd-destination',
    containers: [destinationContainer(values, ctx), spValidatorContainer(values), policyContainer(values, ctx)],
    volumes: [
      { name: 'sp-tls', secret: { secretName: 'linkerd-sp-validator-k8s-tls' } },
      { name: 'policy-tls', secret: { secretName: 'linkerd-policy-validator-k8s-tls' } },
    ],
  });
  const spec = withControlPlaneProxy(values, ctx, pod, {
    component: 'linkerd-destination',
    podInboundPorts: '8086,8090,8443,9443,9990,9996,9997',
    proxyResources: values.destinationProxyResources,
  });
  return controlPlaneDeployment(values, ctx, {
    name: 'linkerd-destination',
    component: 'destination',
    fullSelector: true,
    spec,
    leadingAnnotations: { 'checksum/config': checksum },
    annotations: { ...values.destinationController.podAnnotations },
  });
}
