import { createIssuer } from './createIssuer.js';
import { createTrustAnchor } from './createTrustAnchor.js';
import type { Credentials } from './credentials.js';
import { generateKeyPair, type KeyPair } from './keys.js';

/** linkerd's DefaultLifetime (8760h). */
export const DEFAULT_CERT_LIFETIME_MS = 365 * 24 * 60 * 60 * 1000;
/** linkerd's DefaultClockSkewAllowance: certificates start this much before "now" and end this much after the lifetime. */
export const CLOCK_SKEW_ALLOWANCE_MS = 10 * 1000;

export interface IdentityCredentialsOptions {
  /** identityTrustDomain, or clusterDomain when that is empty. */
  trustDomain: string;
  /** The control-plane namespace. */
  namespace: string;
  now: Date;
  /** Default 365 days. */
  anchorValidity?: number;
  /** Default 365 days. */
  issuerValidity?: number;
  /** Pin keys and serials for reproducible output. */
  anchorKeys?: KeyPair;
  issuerKeys?: KeyPair;
  anchorSerial?: string;
  issuerSerial?: string;
}

/**
 * The identity PKI install generates when no certificates are supplied: a trust
 * anchor `root.linkerd.<td>` and an issuer `identity.<ns>.<td>` signed by it, each
 * valid from now − 10 s to now + validity + 10 s (linkerd's clock-skew allowance).
 * Unlike the Go CLI, which makes one self-signed root serving as both, this is a
 * real two-level chain, so the anchor key can stay offline and the issuer rotate.
 */
export async function generateIdentityCredentials(opts: IdentityCredentialsOptions): Promise<{ anchor: Credentials; issuer: Credentials }> {
  const now = opts.now.getTime();
  const notBefore = new Date(now - CLOCK_SKEW_ALLOWANCE_MS);
  // Kept, so the issuer is signed with them rather than with the anchor's key parsed back from PEM.
  const anchorKeys = opts.anchorKeys ?? (await generateKeyPair('ecdsa-p256'));
  const anchor = await createTrustAnchor({
    commonName: `root.linkerd.${opts.trustDomain}`,
    notBefore,
    notAfter: new Date(now + (opts.anchorValidity ?? DEFAULT_CERT_LIFETIME_MS) + CLOCK_SKEW_ALLOWANCE_MS),
    serial: opts.anchorSerial,
    keys: anchorKeys,
  });
  const issuer = await createIssuer({
    anchor,
    commonName: `identity.${opts.namespace}.${opts.trustDomain}`,
    notBefore,
    notAfter: new Date(now + (opts.issuerValidity ?? DEFAULT_CERT_LIFETIME_MS) + CLOCK_SKEW_ALLOWANCE_MS),
    serial: opts.issuerSerial,
    keys: opts.issuerKeys,
    anchorKeys,
  });
  return { anchor, issuer };
}
