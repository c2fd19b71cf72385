import type { Credentials } from './credentials.js';
import { generateRsaKey, type KeyPair } from './keys.js';
import { selfSigned } from './selfSigned.js';
import { assertValidityWindow } from './validityWindow.js';
import { x509 } from './x509.js';

export interface WebhookCertOptions {
  /** `<service>.<namespace>.svc`; used as the CN and the only DNS SAN. */
  dnsName: string;
  notBefore: Date;
  notAfter: Date;
  /** Hexadecimal; a random 128-bit serial when omitted. */
  serial?: string;
  /** An extractable key pair; a fresh RSA-2048 pair when omitted. */
  keys?: KeyPair;
  /**
   * BasicConstraints cA. Sprig's genSelfSignedCert leaves it false (the extension is
   * present, CA:FALSE): the API server trusts the certificate because the caBundle
   * holds that very certificate, and Go accepts a root-pool match without CA rights.
   */
  isCA?: boolean;
}

/**
 * A self-signed serving certificate like Helm/Sprig's `genSelfSignedCert`, which the
 * chart calls for each webhook: RSA-2048, CN and DNS SAN = dnsName, digitalSignature +
 * keyEncipherment, serverAuth + clientAuth. The certificate doubles as the caBundle.
 * Key PEM is PKCS#1 `RSA PRIVATE KEY`, as Sprig writes it.
 */
export async function createWebhookCert(opts: WebhookCertOptions): Promise<Credentials> {
  assertValidityWindow(opts.notBefore, opts.notAfter, 'webhook certificate');
  const keys = opts.keys ?? (await generateRsaKey(2048));
  // Go's order and criticality; Go adds no key ids to a non-CA self-signed certificate.
  return selfSigned(keys, opts.dnsName, opts, [
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]),
    new x509.BasicConstraintsExtension(opts.isCA ?? false, undefined, true),
    new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: opts.dnsName }]),
  ]);
}
