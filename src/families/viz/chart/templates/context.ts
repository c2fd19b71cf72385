import type { Credentials } from '../../../../core/pki/credentials.js';

/** The two serving certificates viz needs: tap's (behind the APIService) and tap-injector's (the webhook). */
export type VizTlsKey = 'tap' | 'tapInjector';

/**
 * Everything a viz render depends on besides the values. The serving certificates are random and
 * time-bound, so the caller makes them (see credentials.ts) and passes them in: the same values
 * and context always give the same objects.
 */
export interface VizContext {
  /** Where viz is installed; the real CLI hard-wires `linkerd-viz`. */
  namespace: string;
  /**
   * Generated certificates for tap and tap-injector, each needed unless the values carry the
   * certificate (`crtPEM`/`keyPEM`) or manage it outside (`externalSecret`).
   */
  credentials: Partial<Record<VizTlsKey, Credentials>>;
}

export const VIZ_NAMESPACE = 'linkerd-viz';
