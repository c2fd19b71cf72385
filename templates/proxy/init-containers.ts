import type { Container, SecurityContext, VolumeMount } from 'kubernetes-types/core/v1.js';
import type { Values } from '../../src/core/values/index.js';
import { UserError } from '../../src/core/errors.js';
import { XTABLES_LOCK_VOLUME, type ProxyPodContext } from './context.js';
import { proxyImage } from './proxy-container.js';
import { resourceRequirements } from './resources.js';
import { firstAppContainer, serviceAccountMount } from './app-container.js';
import { DEBUG_CONTAINER_NAME, NETWORK_VALIDATOR_CONTAINER_NAME, PROXY_INIT_CONTAINER_NAME } from '../../src/core/mesh/names.js';

const FIREWALL_BINARIES: Record<string, [string, string]> = {
  nft: ['iptables-nft', 'iptables-nft-save'],
  legacy: ['iptables-legacy', 'iptables-legacy-save'],
};

function proxyInitArgs(values: Values, ctx: ProxyPodContext): string[] {
  const pi = values.proxyInit;
  const bins = FIREWALL_BINARIES[pi.iptablesMode];
  if (!bins) throw new UserError(`proxyInit.iptablesMode must be one of: nft, legacy (got ${pi.iptablesMode})`);
  const args = ['--firewall-bin-path', bins[0], '--firewall-save-bin-path', bins[1]];
  if (values.disableIPv6) args.push('--ipv6=false');
  args.push(
    '--incoming-proxy-port',
    String(values.proxy.ports.inbound),
    '--outgoing-proxy-port',
    String(values.proxy.ports.outbound),
    '--proxy-uid',
    String(values.proxy.uid),
  );
  if (values.proxy.gid >= 0) args.push('--proxy-gid', String(values.proxy.gid));
  const inboundIgnore = [values.proxy.ports.control, values.proxy.ports.admin, pi.ignoreInboundPorts].filter((x) => x !== '');
  args.push('--inbound-ports-to-ignore', inboundIgnore.join(','));
  // Control-plane pods must reach the API server before their own proxy is up.
  const outboundIgnore = ctx.component ? pi.kubeAPIServerPorts : pi.ignoreOutboundPorts;
  if (outboundIgnore) args.push('--outbound-ports-to-ignore', outboundIgnore);
  if (pi.closeWaitTimeoutSecs) {
    if (!pi.runAsRoot) throw new UserError('proxyInit.closeWaitTimeoutSecs requires proxyInit.runAsRoot=true');
    args.push('--timeout-close-wait-secs', String(pi.closeWaitTimeoutSecs));
  }
  if (pi.logFormat) args.push('--log-format', pi.logFormat);
  if (pi.logLevel) args.push('--log-level', pi.logLevel);
  if (pi.skipSubnets) args.push('--subnets-to-ignore', pi.skipSubnets);
  return args;
}

function proxyInitSecurityContext(values: Values, ctx: ProxyPodContext): SecurityContext {
  const pi = values.proxyInit;
  // Injection carries the app's capabilities over (so PodSecurity admits the pod); the chart's
  // control-plane pods do not.
  const appCaps = ctx.component ? undefined : firstAppContainer(ctx.podSpec)?.securityContext?.capabilities;
  const add = ['NET_ADMIN', 'NET_RAW', ...(appCaps?.add ?? []).filter((c) => c !== 'NET_ADMIN' && c !== 'NET_RAW')];
  const drop = (appCaps?.drop ?? []).filter((c) => c !== 'NET_ADMIN' && c !== 'NET_RAW');
  const root = pi.runAsRoot;
  const sc: SecurityContext = {
    allowPrivilegeEscalation: Boolean(pi.privileged || pi.closeWaitTimeoutSecs),
    capabilities: drop.length ? { add, drop } : { add },
    privileged: Boolean(pi.privileged || pi.closeWaitTimeoutSecs),
    readOnlyRootFilesystem: true,
    runAsGroup: root ? 0 : pi.runAsGroup || 65534,
    runAsNonRoot: !root,
    runAsUser: root ? 0 : pi.runAsUser || 65534,
    seccompProfile: { type: 'RuntimeDefault' },
  };
  return sc;
}

/** `linkerd-init`: proxy-init from the proxy image, programming iptables before the app starts. */
export function proxyInitContainer(values: Values, ctx: ProxyPodContext): Container {
  const mounts: VolumeMount[] = [{ mountPath: values.proxyInit.xtMountPath.mountPath, name: XTABLES_LOCK_VOLUME }];
  const sa = serviceAccountMount(ctx.podSpec);
  if (sa) mounts.push(sa);
  const c: Container = {
    args: proxyInitArgs(values, ctx),
    command: ['/usr/lib/linkerd/linkerd2-proxy-init'],
    image: proxyImage(values),
    imagePullPolicy: values.proxy.image.pullPolicy || values.imagePullPolicy,
    name: PROXY_INIT_CONTAINER_NAME,
  };
  const resources = resourceRequirements(values.proxy.resources);
  if (resources) c.resources = resources;
  c.securityContext = proxyInitSecurityContext(values, ctx);
  c.terminationMessagePolicy = 'FallbackToLogsOnError';
  c.volumeMounts = mounts;
  return c;
}

/** With the CNI plugin, proxy-init is replaced by a check that the plugin set up redirection. */
export function networkValidatorContainer(values: Values): Container {
  const v4 = values.disableIPv6;
  const c: Container = {
    args: [
      '--log-format',
      values.networkValidator.logFormat || 'plain',
      '--log-level',
      values.networkValidator.logLevel || 'debug',
      '--connect-addr',
      values.networkValidator.connectAddr || (v4 ? '1.1.1.1:20001' : '[fd00::1]:20001'),
      '--listen-addr',
      values.networkValidator.listenAddr || (v4 ? '0.0.0.0:4140' : '[::]:4140'),
      '--timeout',
      values.networkValidator.timeout || '10s',
    ],
    command: ['/usr/lib/linkerd/linkerd2-network-validator'],
    image: proxyImage(values),
    imagePullPolicy: values.proxy.image.pullPolicy || values.imagePullPolicy,
    name: NETWORK_VALIDATOR_CONTAINER_NAME,
  };
  const resources = resourceRequirements(values.proxy.resources);
  if (resources) c.resources = resources;
  // `networkValidator.securityContext` verbatim, unless `enableSecurityContext` is off (then none).
  if (values.networkValidator.enableSecurityContext) {
    c.securityContext = structuredClone(values.networkValidator.securityContext);
  }
  c.terminationMessagePolicy = 'FallbackToLogsOnError';
  return c;
}

/** `linkerd-debug` (`--enable-debug-sidecar`): a shell with network tools next to the proxy. */
export function debugContainer(values: Values): Container {
  const img = values.debugContainer.image;
  return {
    image: `${img.name}:${img.version || values.linkerdVersion}`,
    imagePullPolicy: img.pullPolicy || values.imagePullPolicy,
    livenessProbe: { exec: { command: ['true'] } },
    name: DEBUG_CONTAINER_NAME,
    readinessProbe: { exec: { command: ['true'] } },
    terminationMessagePolicy: 'FallbackToLogsOnError',
  };
}
