import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import { authorizationPoliciesCrd } from './authorization-policies.js';
import type { CrdContext } from './crd-context.js';
import { egressNetworksCrd } from './egress-networks.js';
import { externalWorkloadsCrd } from './external-workloads.js';
import { gatewayGrpcRoutesCrd } from './gateway-grpc-routes.js';
import { gatewayHttpRoutesCrd } from './gateway-http-routes.js';
import { gatewayTcpRoutesCrd } from './gateway-tcp-routes.js';
import { gatewayTlsRoutesCrd } from './gateway-tls-routes.js';
import { httpLocalRateLimitPoliciesCrd } from './http-local-rate-limit-policies.js';
import { meshTlsAuthenticationsCrd } from './meshtls-authentications.js';
import { networkAuthenticationsCrd } from './network-authentications.js';
import { policyHttpRoutesCrd } from './policy-http-routes.js';
import { serverAuthorizationsCrd } from './server-authorizations.js';
import { serversCrd } from './servers.js';
import { serviceProfilesCrd } from './service-profiles.js';

export type { CrdContext } from './crd-context.js';
export { GATEWAY_API_BUNDLE_VERSION } from './gateway-api-crd.js';

type CrdTemplate = (ctx: CrdContext) => CustomResourceDefinition;

// Render order is the chart's template order (`TemplatesCrdFiles` in the Go CLI), so output
// diffs cleanly against `linkerd install --crds`; the Gateway API CRDs sit after serviceprofiles.
const LINKERD_BEFORE_GATEWAY: CrdTemplate[] = [
  authorizationPoliciesCrd,
  egressNetworksCrd,
  httpLocalRateLimitPoliciesCrd,
  policyHttpRoutesCrd,
  meshTlsAuthenticationsCrd,
  networkAuthenticationsCrd,
  serverAuthorizationsCrd,
  serversCrd,
  serviceProfilesCrd,
];
const GATEWAY_API: CrdTemplate[] = [gatewayHttpRoutesCrd, gatewayGrpcRoutesCrd, gatewayTlsRoutesCrd, gatewayTcpRoutesCrd];
const LINKERD_AFTER_GATEWAY: CrdTemplate[] = [externalWorkloadsCrd];

/** The CRDs of `linkerd install --crds`, in output order. */
export function renderCrds(ctx: CrdContext): CustomResourceDefinition[] {
  const templates = [...LINKERD_BEFORE_GATEWAY, ...(ctx.installGatewayAPI ? GATEWAY_API : []), ...LINKERD_AFTER_GATEWAY];
  return templates.map((template) => template(ctx));
}

/** The linkerd-crds chart's values its templates read (part of the control-plane values, as linkerd's NewValues merges them). */
export interface CrdsValues {
  installGatewayAPI: boolean;
  /** Each, when present, overrides installGatewayAPI for its CRDs (absent ≠ false). */
  enableHttpRoutes?: boolean;
  enableTlsRoutes?: boolean;
  enableTcpRoutes?: boolean;
}

/** The value that guards each Gateway API CRD in the chart (`{{ if .Values.enableHttpRoutes }}` …). */
const GATEWAY_CRD_SWITCHES: Readonly<Record<string, 'enableHttpRoutes' | 'enableTlsRoutes' | 'enableTcpRoutes'>> = {
  'httproutes.gateway.networking.k8s.io': 'enableHttpRoutes',
  'grpcroutes.gateway.networking.k8s.io': 'enableHttpRoutes',
  'tlsroutes.gateway.networking.k8s.io': 'enableTlsRoutes',
  'tcproutes.gateway.networking.k8s.io': 'enableTcpRoutes',
};

/**
 * The linkerd-crds chart's template: Linkerd's own CRDs always, and each Gateway API CRD its
 * switch turns on (installGatewayAPI when the switch is absent), in the chart's order.
 */
export function renderCrdsChart(values: CrdsValues, ctx: Omit<CrdContext, 'installGatewayAPI'>): CustomResourceDefinition[] {
  return renderCrds({ ...ctx, installGatewayAPI: true }).filter((crd) => {
    const key = GATEWAY_CRD_SWITCHES[crd.metadata?.name ?? ''];
    return key === undefined || (values[key] ?? values.installGatewayAPI);
  });
}

/** Names of the Gateway API CRDs Linkerd can install (and recognises as its own). */
export const GATEWAY_API_CRD_NAMES: string[] = [
  'httproutes.gateway.networking.k8s.io',
  'grpcroutes.gateway.networking.k8s.io',
  'tlsroutes.gateway.networking.k8s.io',
  'tcproutes.gateway.networking.k8s.io',
];

export interface CrdExpectation {
  name: string;
  /** The last version the CRD lists, which `check` requires the cluster's CRD to serve. */
  lastVersion: string;
}

/**
 * What "control plane CustomResourceDefinitions exist" looks for: every Linkerd CRD (never
 * the Gateway API ones) with its last listed version. Derived from the templates so it
 * cannot drift from what `install --crds` renders; names and versions do not depend on the
 * context, so a placeholder one is enough.
 */
export const LINKERD_CRD_EXPECTATIONS: CrdExpectation[] = renderCrds({
  namespace: 'linkerd',
  cliVersion: '',
  chartVersion: '',
  installGatewayAPI: false,
}).map((crd) => ({
  name: crd.metadata?.name ?? '',
  lastVersion: crd.spec.versions[crd.spec.versions.length - 1]?.name ?? '',
}));
