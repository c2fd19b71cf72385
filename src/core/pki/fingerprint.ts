import { createHash } from 'node:crypto';
import type { x509 } from './x509.js';

let last: { text: string; hex: string } | undefined;

/**
 * Hex SHA-256 of a string's UTF-8 bytes; linkerd's `linkerd.io/trust-root-sha256` is this of the
 * anchors PEM (the last answer is kept: inject asks it for every workload with the same PEM).
 */
export function sha256Hex(text: string): string {
  if (last?.text !== text) last = { text, hex: createHash('sha256').update(text, 'utf8').digest('hex') };
  return last.hex;
}

/** Hex SHA-256 of a certificate's DER encoding (what `openssl x509 -fingerprint -sha256` shows, without colons). */
export function fingerprintSha256(cert: x509.X509Certificate): string {
  return createHash('sha256').update(Buffer.from(cert.rawData)).digest('hex');
}
