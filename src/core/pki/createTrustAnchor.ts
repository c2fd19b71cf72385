import type { Credentials } from './credentials.js';
import { generateKeyPair, type KeyAlgorithm, type KeyPair } from './keys.js';
import { selfSigned } from './selfSigned.js';
import { assertValidityWindow } from './validityWindow.js';
import { x509 } from './x509.js';

export interface TrustAnchorOptions {
  commonName: string;
  notBefore: Date;
  notAfter: Date;
  /** Hexadecimal; a random 128-bit serial when omitted. */
  serial?: string;
  /** An extractable key pair to certify; a fresh one of `algorithm` when omitted. */
  keys?: KeyPair;
  /** Only used when `keys` is omitted. Default `ecdsa-p256`. */
  algorithm?: KeyAlgorithm;
  /** BasicConstraints pathLenConstraint; default 1 (anchor → issuer → workload, like step's root-ca profile); null for none. */
  pathLength?: number | null;
}

/**
 * A self-signed root CA in the shape of `step certificate create --profile root-ca`,
 * which linkerd's docs use for trust anchors: CA (critical), keyCertSign + cRLSign
 * (critical), a subject key id, and the CN repeated as a DNS SAN.
 */
export async function createTrustAnchor(opts: TrustAnchorOptions): Promise<Credentials> {
  assertValidityWindow(opts.notBefore, opts.notAfter, 'trust anchor');
  const keys = opts.keys ?? (await generateKeyPair(opts.algorithm ?? 'ecdsa-p256'));
  const pathLength = opts.pathLength === undefined ? 1 : (opts.pathLength ?? undefined);
  // Go's extension order (KeyUsage, BasicConstraints, SKI, SAN), so the DER looks like step's.
  return selfSigned(keys, opts.commonName, opts, [
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    new x509.BasicConstraintsExtension(true, pathLength, true),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: opts.commonName }]),
  ]);
}
