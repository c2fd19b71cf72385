import type { CronJob } from 'kubernetes-types/batch/v1.js';
import type { Secret } from 'kubernetes-types/core/v1.js';
import { renderControlPlane, type ControlPlaneContext, type RenderedObject, type WebhookKey } from '../../../templates/control-plane/index.js';
import type { Credentials } from '../pki/index.js';
import type { Values } from '../values/index.js';
import { CRDS_CHART_VERSION, LINKERD_VERSION } from '../version.js';
import { heartbeatScheduleAt } from './heartbeatSchedule.js';
import { webhookCredentials } from './webhookCredentials.js';

/** The Secrets holding each webhook's serving certificate, as the chart names them. */
export const WEBHOOK_SECRETS: Record<WebhookKey, string> = {
  proxyInjector: 'linkerd-proxy-injector-k8s-tls',
  profileValidator: 'linkerd-sp-validator-k8s-tls',
  policyValidator: 'linkerd-policy-validator-k8s-tls',
};

/** What a render takes from an installed control plane so that unchanged objects render unchanged. */
export interface InstalledState {
  /** The webhook serving Secrets (`tls.crt`/`tls.key`) found in the cluster. */
  webhookSecrets: Partial<Record<WebhookKey, Secret>>;
  heartbeat?: CronJob;
}

export interface ControlPlaneRenderInput {
  values: Values;
  namespace: string;
  now: Date;
  /** Reuse the cluster's webhook certificates and heartbeat schedule instead of new ones. */
  installed?: InstalledState;
  /** Webhook credentials already being generated (install starts them while it builds the identity chain). */
  webhookCredentials?: Promise<Partial<Record<WebhookKey, Credentials>>>;
}

function credentialsOf(secret: Secret | undefined): Credentials | undefined {
  const crt = secret?.data?.['tls.crt'];
  const key = secret?.data?.['tls.key'];
  if (crt === undefined || key === undefined) return undefined;
  return { certPem: Buffer.from(crt, 'base64').toString('utf8'), keyPem: Buffer.from(key, 'base64').toString('utf8') };
}

/**
 * The context of a control-plane render: webhook certificates are generated unless the
 * installed ones are given (then an upgrade of unrelated values leaves the webhook Secrets and
 * the checksums that follow from them untouched), and the installed heartbeat schedule is kept.
 */
export async function controlPlaneContext(input: Omit<ControlPlaneRenderInput, 'values'> & { values: Values }): Promise<ControlPlaneContext> {
  const installed = Object.fromEntries(
    (Object.keys(WEBHOOK_SECRETS) as WebhookKey[]).flatMap((key) => {
      const c = credentialsOf(input.installed?.webhookSecrets[key]);
      return c ? [[key, c]] : [];
    }),
  ) as Partial<Record<WebhookKey, Credentials>>;
  const generated = await (input.webhookCredentials ?? webhookCredentials(input.values, input.namespace, input.now));
  const creds: Partial<Record<WebhookKey, Credentials>> = {};
  for (const key of Object.keys(generated) as WebhookKey[]) creds[key] = installed[key] ?? generated[key];
  return {
    namespace: input.namespace,
    cliVersion: LINKERD_VERSION,
    crdsChartVersion: `linkerd-crds-${CRDS_CHART_VERSION}`,
    webhookCredentials: creds,
    heartbeatSchedule: input.installed?.heartbeat?.spec?.schedule ?? heartbeatScheduleAt(input.now),
  };
}

/** The control plane for `values`: the one render path of install, upgrade and the identity rotation steps. */
export async function renderControlPlaneFor(input: ControlPlaneRenderInput): Promise<RenderedObject[]> {
  return renderControlPlane(input.values, await controlPlaneContext(input));
}

const identityOf = (o: RenderedObject) => `${o.apiVersion}/${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

/**
 * The objects of `after` that differ from `before` (or are new): the manifest of a change, for
 * `kubectl apply`. Both renders must share the installed state so only the change shows.
 */
export function changedObjects(before: readonly RenderedObject[], after: readonly RenderedObject[]): RenderedObject[] {
  const old = new Map(before.map((o) => [identityOf(o), JSON.stringify(o)]));
  return after.filter((o) => old.get(identityOf(o)) !== JSON.stringify(o));
}
