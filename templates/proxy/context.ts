import type { PodSpec } from 'kubernetes-types/core/v1.js';

/** What the proxy templates need to know about the pod they are added to, beyond the values. */
export interface ProxyPodContext {
  /** Control-plane namespace (`-L`), which names the control-plane services the proxy dials. */
  controlPlaneNamespace: string;
  /** The pod's own spec before injection: its ports, capabilities and service-account mount matter. */
  podSpec: PodSpec;
  /**
   * Control-plane pods dial their own component on localhost and read the trust bundle from the
   * `linkerd-identity-trust-roots` ConfigMap instead of an inline PEM (they are never injected by
   * the webhook, so they would otherwise miss bundle updates).
   */
  component?: 'linkerd-identity' | 'linkerd-destination' | 'linkerd-proxy-injector';
}

/** Volume names and paths of the proxy templates (container names are in src/core/mesh/names.ts). */
export const END_ENTITY_VOLUME = 'linkerd-identity-end-entity';
export const XTABLES_LOCK_VOLUME = 'linkerd-proxy-init-xtables-lock';
export const IDENTITY_TOKEN_VOLUME = 'linkerd-identity-token';
export const PODINFO_VOLUME = 'linkerd-podinfo';
export const SERVICE_ACCOUNT_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
