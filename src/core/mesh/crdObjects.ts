import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { RenderedObject } from '../../../templates/control-plane/index.js';
import { crdsChart } from '../values/crdsChart.js';
import { overridesHave, type ComposedValues, type Values } from '../values/index.js';
import { CRDS_CHART_VERSION, LINKERD_VERSION } from '../version.js';
import { decideGatewayApi, type GatewayApiState } from './gatewayApi.js';

/**
 * The CRD chart of `install --crds` and `upgrade --crds`, with the Gateway API decision of linkerd's
 * renderCRDs (`state` undefined without a cluster).
 */
export async function renderCrdObjects(namespace: string, composed: ComposedValues<Values>, state: GatewayApiState | undefined): Promise<RenderedObject[]> {
  const { values, overrides } = composed;
  const selection = decideGatewayApi(state, {
    // The chart default (false) is not a choice: with a cluster, the default follows what is installed.
    installGatewayAPI: overridesHave(overrides, ['installGatewayAPI']) ? values.installGatewayAPI : undefined,
    enableHttpRoutes: values.enableHttpRoutes,
    enableTlsRoutes: values.enableTlsRoutes,
    enableTcpRoutes: values.enableTcpRoutes,
  });
  const { crds } = await crdsChart.templates();
  // The chart renders with its switches as decided against the cluster.
  const switches = { ...values, enableHttpRoutes: selection.httpRoutes, enableTlsRoutes: selection.tlsRoutes, enableTcpRoutes: selection.tcpRoutes };
  return crds(switches, { namespace, cliVersion: LINKERD_VERSION, chartVersion: CRDS_CHART_VERSION }).map(rendered);
}

function rendered(crd: CustomResourceDefinition): RenderedObject {
  return { ...crd, apiVersion: crd.apiVersion ?? 'apiextensions.k8s.io/v1', kind: crd.kind ?? 'CustomResourceDefinition', metadata: crd.metadata ?? {} };
}
