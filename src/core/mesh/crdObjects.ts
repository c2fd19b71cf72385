import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { RenderedObject } from '../../../templates/control-plane/index.js';
import { overridesHave, type ComposedValues } from '../values/index.js';
import { CRDS_CHART_VERSION, LINKERD_VERSION } from '../version.js';
import { decideGatewayApi, selectGatewayCrds, type GatewayApiState } from './gatewayApi.js';

/**
 * The CRD chart of `install --crds` and `upgrade --crds`, with the Gateway API decision of spec
 * §2.9 (`state` undefined without a cluster).
 */
export async function renderCrdObjects(namespace: string, composed: ComposedValues, state: GatewayApiState | undefined): Promise<RenderedObject[]> {
  const { values, overrides } = composed;
  const selection = decideGatewayApi(state, {
    // The chart default (false) is not a choice: with a cluster, the default follows what is installed.
    installGatewayAPI: overridesHave(overrides, ['installGatewayAPI']) ? values.installGatewayAPI : undefined,
    enableHttpRoutes: values.enableHttpRoutes,
    enableTlsRoutes: values.enableTlsRoutes,
    enableTcpRoutes: values.enableTcpRoutes,
  });
  // The CRD schemas are large; only `--crds` loads them.
  const { renderCrds } = await import('../../../templates/crds/index.js');
  const crds = renderCrds({ namespace, cliVersion: LINKERD_VERSION, chartVersion: CRDS_CHART_VERSION, installGatewayAPI: true });
  return selectGatewayCrds(crds, selection).map(rendered);
}

function rendered(crd: CustomResourceDefinition): RenderedObject {
  return { ...crd, apiVersion: crd.apiVersion ?? 'apiextensions.k8s.io/v1', kind: crd.kind ?? 'CustomResourceDefinition', metadata: crd.metadata ?? {} };
}
