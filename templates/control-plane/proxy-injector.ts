import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type { Container } from 'kubernetes-types/core/v1.js';
import type { Values } from '../../src/core/values/index.js';
import type { ControlPlaneContext } from './context.js';
import { controllerContainer, controllerResources, extraEnv, proxiedDeployment } from './pod.js';
import { LINKERD_CONFIG, TRUST_ROOTS_CONFIGMAP } from '../../src/core/mesh/names.js';

function injectorContainer(values: Values, ctx: ControlPlaneContext): Container {
  const pi = values.proxyInjector;
  return controllerContainer(values, {
    name: 'proxy-injector',
    args: [
      'proxy-injector',
      `-log-level=${values.controllerLogLevel}`,
      `-log-format=${values.controllerLogFormat}`,
      `-linkerd-namespace=${ctx.namespace}`,
      `-enable-pprof=${values.enablePprof}`,
    ],
    env: extraEnv(pi),
    ports: [
      { containerPort: 8443, name: 'proxy-injector' },
      { containerPort: 9995, name: 'injector-admin' },
    ],
    adminPort: 9995,
    probeTimeouts: pi,
    resources: controllerResources(values.proxyInjectorResources),
    volumeMounts: [
      { mountPath: '/var/run/linkerd/config', name: 'config' },
      { mountPath: '/var/run/linkerd/identity/trust-roots', name: 'trust-roots' },
      { mountPath: '/var/run/linkerd/tls', name: 'tls', readOnly: true },
    ],
  });
}

/**
 * The proxy injector reads linkerd-config and the trust bundle on every admission, so new pods
 * pick up configuration changes without a restart. Port 8443 is opaque: the API server's calls
 * are TLS the proxy must not try to detect.
 */
export function proxyInjectorDeployment(values: Values, ctx: ControlPlaneContext, checksum: string): Deployment {
  return proxiedDeployment(values, ctx, {
    component: 'proxy-injector',
    containers: [injectorContainer(values, ctx)],
    volumes: [
      { name: 'config', configMap: { name: LINKERD_CONFIG } },
      { name: 'trust-roots', configMap: { name: TRUST_ROOTS_CONFIGMAP } },
      { name: 'tls', secret: { secretName: 'linkerd-proxy-injector-k8s-tls' } },
    ],
    proxy: { podInboundPorts: '8443,9995', proxyResources: values.proxyInjectorProxyResources },
    fullSelector: false,
    leadingAnnotations: { 'checksum/config': checksum },
    annotations: { 'config.linkerd.io/opaque-ports': '8443', ...values.proxyInjector.podAnnotations },
  });
}
