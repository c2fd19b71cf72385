import { renderControlPlane } from '../../../../templates/control-plane/index.js';
import type { Credentials } from '../../../../src/core/pki/index.js';
import type { Values } from '../../../../src/core/values/index.js';
import { CRDS_CHART_VERSION, LINKERD_VERSION } from '../../../../src/core/version.js';
import type { StoredObject } from '../../../support/apiserver-store.js';

export interface RenderContext {
  namespace: string;
  webhooks: Record<'proxyInjector' | 'profileValidator' | 'policyValidator', Credentials>;
}

/**
 * The control-plane objects of `linkerd install` for these values: this project's own
 * renderer, with the webhook certificates and heartbeat schedule pinned by the test.
 */
export function renderControlPlaneObjects(values: Values, ctx: RenderContext): StoredObject[] {
  return renderControlPlane(values, {
    namespace: ctx.namespace,
    cliVersion: LINKERD_VERSION,
    crdsChartVersion: `linkerd-crds-${CRDS_CHART_VERSION}`,
    webhookCredentials: ctx.webhooks,
    heartbeatSchedule: '1 2 3 4 5',
  }) as unknown as StoredObject[];
}
