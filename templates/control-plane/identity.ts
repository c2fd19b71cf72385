import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type { ConfigMap, Container, Secret } from 'kubernetes-types/core/v1.js';
import { UserError } from '../../src/core/errors.js';
import type { Values } from '../../src/core/values/index.js';
import { trustDomainOf } from '../proxy/index.js';
import type { ControlPlaneContext } from './context.js';
import { b64, componentLabels, createdByAnnotation, namespacedMeta } from './metadata.js';
import { controllerContainer, controllerResources, extraEnv, proxiedDeployment } from './pod.js';
import { traceArgs } from './trace.js';
import { ISSUER_SECRET, TRUST_BUNDLE_KEY, TRUST_ROOTS_CONFIGMAP } from '../../src/core/mesh/names.js';

/**
 * Secret `linkerd-identity-issuer` (`crt.pem`/`key.pem`) for the `linkerd.io/tls` scheme. With an
 * external issuer (`kubernetes.io/tls`) the Secret is cert-manager's, so nothing is rendered.
 */
export function identityIssuerSecret(values: Values, ctx: ControlPlaneContext): Secret[] {
  if (values.identity.issuer.scheme !== 'linkerd.io/tls') return [];
  const { crtPEM, keyPEM } = values.identity.issuer.tls;
  if (!crtPEM) throw new UserError('Please provide the identity issuer certificate');
  if (!keyPEM) throw new UserError('Please provide the identity issue private key');
  return [
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: namespacedMeta(ISSUER_SECRET, ctx, componentLabels(values, ctx, 'identity'), createdByAnnotation(values, ctx)),
      data: { 'crt.pem': b64(crtPEM), 'key.pem': b64(keyPEM) },
    },
  ];
}

/** ConfigMap `linkerd-identity-trust-roots`; with `identity.externalCA` another tool (trust-manager) owns it. */
export function trustRootsConfigMap(values: Values, ctx: ControlPlaneContext): ConfigMap[] {
  if (values.identity.externalCA) return [];
  return [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: namespacedMeta(TRUST_ROOTS_CONFIGMAP, ctx, componentLabels(values, ctx, 'identity'), createdByAnnotation(values, ctx)),
      data: { [TRUST_BUNDLE_KEY]: values.identityTrustAnchorsPEM.trim() }, // trimmed, as the chart writes it
    },
  ];
}

function identityContainer(values: Values, ctx: ControlPlaneContext): Container {
  const issuer = values.identity.issuer;
  return controllerContainer(values, {
    name: 'identity',
    args: [
      'identity',
      `-log-level=${values.controllerLogLevel}`,
      `-log-format=${values.controllerLogFormat}`,
      `-controller-namespace=${ctx.namespace}`,
      `-identity-trust-domain=${trustDomainOf(values)}`,
      `-identity-issuance-lifetime=${issuer.issuanceLifetime}`,
      `-identity-clock-skew-allowance=${issuer.clockSkewAllowance}`,
      `-identity-scheme=${issuer.scheme}`,
      `-enable-pprof=${values.enablePprof}`,
      `-kube-apiclient-qps=${values.identity.kubeAPI.clientQPS}`,
      `-kube-apiclient-burst=${values.identity.kubeAPI.clientBurst}`,
      ...traceArgs(values),
    ],
    env: [{ name: 'LINKERD_DISABLED', value: 'linkerd-await cannot block the identity controller' }, ...extraEnv(values.identity)],
    ports: [
      { containerPort: 8080, name: 'ident-grpc' },
      { containerPort: 9990, name: 'ident-admin' },
    ],
    adminPort: 9990,
    probeTimeouts: values.identity,
    resources: controllerResources(values.identityResources),
    volumeMounts: [
      { mountPath: '/var/run/linkerd/identity/issuer', name: 'identity-issuer' },
      { mountPath: '/var/run/linkerd/identity/trust-roots/', name: 'trust-roots' },
    ],
  });
}

/**
 * The identity controller. Its proxy is a regular container that does not hold the pod back
 * (the controller cannot wait for an identity it issues itself) and refuses plaintext on 8080.
 */
export function identityDeployment(values: Values, ctx: ControlPlaneContext): Deployment {
  return proxiedDeployment(values, ctx, {
    component: 'identity',
    containers: [identityContainer(values, ctx)],
    volumes: [
      { name: 'identity-issuer', secret: { secretName: ISSUER_SECRET } },
      { name: 'trust-roots', configMap: { name: TRUST_ROOTS_CONFIGMAP } },
    ],
    proxy: { podInboundPorts: '8080,9990', proxyResources: values.identityProxyResources, regularContainer: true, requireTLSOnInboundPorts: '8080' },
    fullSelector: true,
    annotations: { ...values.identity.podAnnotations },
  });
}
