import type { Credentials } from '../../src/core/pki/credentials.js';

/** The three admission webhooks, by their key in the values. */
export type WebhookKey = 'proxyInjector' | 'profileValidator' | 'policyValidator';

/**
 * Everything a control-plane render depends on besides the values. What is random or
 * time-bound by nature (webhook serving certificates, the heartbeat schedule) is decided by
 * the caller and passed in, so the same values and context always give the same objects.
 */
export interface ControlPlaneContext {
  /** The control-plane namespace (`-L`). */
  namespace: string;
  /** The CLI version (`edge-26.9.1`): the defaults the overrides Secret is diffed against. */
  cliVersion: string;
  /** `linkerd-crds-<version>`, recorded in linkerd-config. */
  crdsChartVersion: string;
  /**
   * Generated serving credentials for each webhook whose certificate is not given in the
   * values (`<hook>.crtPEM`/`keyPEM`) nor managed externally (`<hook>.externalSecret`).
   */
  webhookCredentials: Partial<Record<WebhookKey, Credentials>>;
  /** The heartbeat CronJob's schedule when `heartbeatSchedule` is not set in the values. */
  heartbeatSchedule: string;
}
