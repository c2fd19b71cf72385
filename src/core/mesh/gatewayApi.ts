import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import { UserError } from '../errors.js';
import { CREATED_BY_ANNOTATION } from './names.js';
import { GATEWAY_API_BUNDLE_VERSION } from '../../../templates/crds/gateway-api-crd.js';

/*
 * Gateway API CRDs, decided as linkerd's renderCRDs and healthcheck.CheckGatewayAPICRDs do. They are a prerequisite of the control plane; Linkerd can
 * install the route CRDs itself, but only when nobody else provides them.
 */

/** Who provides the Gateway API route CRDs in the cluster. */
export type GatewayApiState = 'linkerd' | 'external' | 'absent';

/**
 * Where to get the Gateway API CRDs when Linkerd does not install them: the release of the bundle
 * `installGatewayAPI=true` renders, so both ways give the same CRDs. (The real CLI's hint names
 * v1.5.1 while its chart renders v1.1.1; one version here.)
 */
export const GATEWAY_API_INSTALL_URL = `https://github.com/kubernetes-sigs/gateway-api/releases/download/${GATEWAY_API_BUNDLE_VERSION}/standard-install.yaml`;

/** The two CRDs the detection looks at. */
export const DETECTED_GATEWAY_CRDS = ['httproutes.gateway.networking.k8s.io', 'grpcroutes.gateway.networking.k8s.io'];

/**
 * Classifies the cluster's Gateway API CRDs: any with `linkerd.io/created-by` → Linkerd-managed;
 * present without it → external (and then it must serve `v1`); none → absent.
 */
export function gatewayApiState(crds: readonly CustomResourceDefinition[]): GatewayApiState {
  const present = crds.filter((c) => DETECTED_GATEWAY_CRDS.includes(c.metadata?.name ?? ''));
  if (present.length === 0) return 'absent';
  if (present.some((c) => c.metadata?.annotations?.[CREATED_BY_ANNOTATION] !== undefined)) return 'linkerd';
  for (const crd of present) {
    if (!crd.spec.versions.some((v) => v.name === 'v1')) {
      throw new UserError(`the ${crd.metadata?.name} CRD is missing the v1 version, please upgrade to Gateway API v1.1.1 or later`);
    }
  }
  return 'external';
}

/** The CRD chart's Gateway API switches, as the user set them (`--set`/`-f`). */
export interface GatewayApiSwitches {
  installGatewayAPI?: boolean;
  enableHttpRoutes?: boolean;
  enableTlsRoutes?: boolean;
  enableTcpRoutes?: boolean;
}

/** Which Gateway API CRDs to render: each per-kind switch, when present, overrides installGatewayAPI. */
export interface GatewayApiSelection {
  httpRoutes: boolean;
  tlsRoutes: boolean;
  tcpRoutes: boolean;
}

/**
 * Decides what `install --crds` renders. With a cluster, the default follows what is there
 * (Linkerd keeps providing what it provided) and conflicting choices are refused; without one
 * (`--ignore-cluster`), the switches alone decide (default: none).
 */
export function decideGatewayApi(state: GatewayApiState | undefined, user: GatewayApiSwitches): GatewayApiSelection {
  const install = user.installGatewayAPI ?? state === 'linkerd';
  const installing = user.enableHttpRoutes ?? install;
  if (state === 'absent' && !installing) {
    throw new UserError("the Gateway API CRDs must be installed before Linkerd's (httproutes and grpcroutes.gateway.networking.k8s.io are missing)", {
      hint: `Install them with \`kubectl apply --server-side -f ${GATEWAY_API_INSTALL_URL}\`, or let Linkerd install them with \`--set installGatewayAPI=true\`.`,
    });
  }
  if (state === 'linkerd' && !installing) {
    throw new UserError('Linkerd is providing GW API, but your current install configuration will remove it');
  }
  if (state === 'external' && installing) {
    throw new UserError(
      'Linkerd cannot install the Gateway API CRDs because they are already installed by an external source. Please set `installGatewayAPI` to `false`.',
    );
  }
  return {
    httpRoutes: installing,
    tlsRoutes: user.enableTlsRoutes ?? install,
    tcpRoutes: user.enableTcpRoutes ?? install,
  };
}
