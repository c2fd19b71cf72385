import { createPublicKey } from 'node:crypto';
import { UserError } from '../errors.js';
import { extensionProblem } from './extensionProblem.js';
import { nistCurveName } from './keys.js';
import { PemReader, encodePem } from './pemBlocks.js';
import { x509 } from './x509.js';

export type CertificatesDecoding = { ok: true; certificates: x509.X509Certificate[] } | { ok: false; reason: string };

export type CertificateParse = { ok: true; certificate: x509.X509Certificate } | { ok: false; reason: string };

/** Parses DER, refusing what Go's x509.ParseCertificate refuses that matters here. */
export function parseCertificateDer(der: Buffer): CertificateParse {
  let certificate: x509.X509Certificate;
  try {
    certificate = new x509.X509Certificate(new Uint8Array(der));
    // Touch the lazily decoded parts so malformed input fails here, not later.
    // eslint-disable-next-line @typescript-eslint/no-meaningless-void-operator -- reading the getter is the point
    void certificate.subject;
    // eslint-disable-next-line @typescript-eslint/no-meaningless-void-operator -- reading the getter is the point
    void certificate.notAfter;
  } catch {
    return { ok: false, reason: 'x509: malformed certificate' };
  }
  const problem = extensionProblem(der);
  if (problem !== undefined) return { ok: false, reason: problem };
  try {
    const key = createPublicKey({ key: Buffer.from(certificate.publicKey.rawData), format: 'der', type: 'spki' });
    // Go only knows the NIST curves; anything else fails to parse at all.
    if (key.asymmetricKeyType === 'ec' && nistCurveName(key.asymmetricKeyDetails?.namedCurve) === undefined) {
      return { ok: false, reason: 'x509: unsupported elliptic curve' };
    }
  } catch {
    // Key types node cannot load are Go's "unknown public key algorithm": still a certificate.
  }
  return { ok: true, certificate };
}

/**
 * Decodes a PEM bundle exactly as linkerd's `tls.DecodePEMCertificates` does:
 * certificates are read until the text runs out; leftover text without a PEM
 * block is an error (`not a PEM certificate`) and the first non-CERTIFICATE block
 * silently ends the list. Zero certificates is not an error here.
 */
export function decodeCertificates(pem: string): CertificatesDecoding {
  const certificates: x509.X509Certificate[] = [];
  const reader = new PemReader(pem);
  while (reader.position < reader.lineCount) {
    const decoded = reader.next();
    if (decoded === undefined) return { ok: false, reason: 'not a PEM certificate' };
    if (decoded.block.type !== 'CERTIFICATE') break;
    const parsed = parseCertificateDer(decoded.block.bytes);
    if (!parsed.ok) return parsed;
    certificates.push(parsed.certificate);
  }
  return { ok: true, certificates };
}

/**
 * Parses one or more PEM certificates, throwing a UserError that names `source`
 * (e.g. `trust anchors file`) when the text is not PEM or holds no certificate.
 */
export function parseCertificates(pem: string, source: string): [x509.X509Certificate, ...x509.X509Certificate[]] {
  const decoded = decodeCertificates(pem);
  if (!decoded.ok) throw new UserError(`${source}: ${decoded.reason}`);
  const [first, ...rest] = decoded.certificates;
  if (first === undefined) throw new UserError(`${source}: no certificates found`);
  return [first, ...rest];
}

/** PEM text for certificates, one `CERTIFICATE` block each, newline-terminated. */
export function certificatesToPem(certificates: readonly x509.X509Certificate[]): string {
  return certificates.map((c) => encodePem('CERTIFICATE', c.rawData)).join('');
}

/**
 * Only the first certificate of a PEM chain, re-encoded: linkerd stores just the
 * leaf of `--identity-issuer-certificate-file` in the issuer Secret.
 */
export function leafPem(pem: string, source = 'certificate'): string {
  const [leaf] = parseCertificates(pem, source);
  return certificatesToPem([leaf]);
}
