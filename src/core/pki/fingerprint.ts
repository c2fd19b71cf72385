import { createHash } from 'node:crypto';
import type { x509 } from './x509.js';

/** Hex SHA-256 of a string's UTF-8 bytes; linkerd's `linkerd.io/trust-root-sha256` is this of the anchors PEM. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Hex SHA-256 of a certificate's DER encoding (what `openssl x509 -fingerprint -sha256` shows, without colons). */
export function fingerprintSha256(cert: x509.X509Certificate): string {
  return createHash('sha256').update(Buffer.from(cert.rawData)).digest('hex');
}
