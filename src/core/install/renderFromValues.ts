import { renderControlPlane, type RenderedObject, type WebhookKey } from '../../../templates/control-plane/index.js';
import type { Credentials } from '../pki/index.js';
import type { Values } from '../values/index.js';
import { CRDS_CHART_VERSION, LINKERD_VERSION } from '../version.js';
import { heartbeatScheduleAt } from './heartbeatSchedule.js';
import { webhookCredentials } from './webhookCredentials.js';

export interface RenderFromValuesOptions {
  /** The control-plane namespace (`-L`). */
  namespace: string;
  /** The clock (webhook certificates' validity, heartbeat schedule); pinned by tests. */
  now?: Date;
  /** Webhook credentials already being generated (install starts them early); generated here when absent. */
  webhookCredentials?: Promise<Partial<Record<WebhookKey, Credentials>>>;
}

/**
 * THE control-plane render of install, upgrade, prune and identity rotation: final values in,
 * every object of `linkerd install` out (the `linkerd-config-overrides` Secret last). Callers
 * differ only in where the values come from. What a render generates afresh each time, as the
 * chart does: the webhooks' serving certificates (hence their caBundles and the pods'
 * `checksum/config`) and, unless `heartbeatSchedule` is set, the heartbeat's schedule.
 * The values must be validated already (validateInstallValues, issuer credentials).
 */
export async function renderControlPlaneFromValues(values: Values, options: RenderFromValuesOptions): Promise<RenderedObject[]> {
  const now = options.now ?? new Date();
  return renderControlPlane(values, {
    namespace: options.namespace,
    cliVersion: LINKERD_VERSION,
    crdsChartVersion: `linkerd-crds-${CRDS_CHART_VERSION}`,
    webhookCredentials: await (options.webhookCredentials ?? webhookCredentials(values, options.namespace, now)),
    heartbeatSchedule: heartbeatScheduleAt(now),
  });
}
