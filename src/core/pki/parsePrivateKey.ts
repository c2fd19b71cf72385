import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { UserError } from '../errors.js';
import { nistCurveName } from './keys.js';
import { decodePemBlock } from './pemBlocks.js';
import type { x509 } from './x509.js';

export interface PrivateKey {
  keyObject: KeyObject;
  type: 'ec' | 'rsa';
  /** The PEM flavour it came in: `EC PRIVATE KEY`, `RSA PRIVATE KEY` or `PRIVATE KEY`. */
  format: 'sec1' | 'pkcs1' | 'pkcs8';
}

export type PrivateKeyDecoding = { ok: true; key: PrivateKey } | { ok: false; reason: string };

const FORMATS: Record<string, PrivateKey['format']> = {
  'EC PRIVATE KEY': 'sec1',
  'RSA PRIVATE KEY': 'pkcs1',
  'PRIVATE KEY': 'pkcs8',
};

const PARSE_ERRORS: Record<PrivateKey['format'], string> = {
  sec1: 'x509: failed to parse EC private key',
  pkcs1: 'x509: failed to parse RSA private key',
  pkcs8: 'x509: failed to parse PKCS#8 private key',
};

/**
 * Decodes the first PEM block of a key file as linkerd's `tls.DecodePEMKey` does:
 * SEC1, PKCS#1 or PKCS#8 holding an EC or RSA key. Reasons are linkerd's
 * (`not PEM-encoded`, `unsupported block type: '<t>'`).
 */
export function decodePrivateKey(pem: string): PrivateKeyDecoding {
  const decoded = decodePemBlock(pem);
  if (decoded === undefined) return { ok: false, reason: 'not PEM-encoded' };
  const { type, bytes } = decoded.block;
  const format = FORMATS[type];
  if (format === undefined) return { ok: false, reason: `unsupported block type: '${type}'` };

  let keyObject: KeyObject;
  try {
    keyObject = createPrivateKey({ key: bytes, format: 'der', type: format });
  } catch {
    return { ok: false, reason: PARSE_ERRORS[format] };
  }
  const keyType = keyObject.asymmetricKeyType;
  if (keyType !== 'ec' && keyType !== 'rsa') {
    return { ok: false, reason: `unsupported private key type in PKCS#8 wrapping: '${keyType ?? 'unknown'}'` };
  }
  if (keyType === 'ec' && nistCurveName(keyObject.asymmetricKeyDetails?.namedCurve) === undefined) {
    return { ok: false, reason: 'x509: unknown elliptic curve' };
  }
  return { ok: true, key: { keyObject, type: keyType, format } };
}

/** Like decodePrivateKey, but throws a UserError naming `source` (e.g. `issuer key file`). */
export function parsePrivateKey(pem: string, source: string): PrivateKey {
  const decoded = decodePrivateKey(pem);
  if (!decoded.ok) throw new UserError(`${source}: ${decoded.reason}`);
  return decoded.key;
}

/** Public-key identity as JWK members, so encodings (compressed points, PKCS#1 vs SPKI) don't matter. */
function publicKeyIdentity(key: KeyObject): string | undefined {
  const jwk = key.export({ format: 'jwk' });
  if (jwk.kty === 'EC') return `EC:${jwk.crv}:${jwk.x}:${jwk.y}`;
  if (jwk.kty === 'RSA') return `RSA:${jwk.n}:${jwk.e}`;
  return undefined;
}

/** Whether the private key belongs to the certificate's public key (same type, same point / modulus). */
export function keyMatchesCertificate(key: KeyObject, certificate: x509.X509Certificate): boolean {
  let certKey: KeyObject;
  try {
    certKey = createPublicKey({ key: Buffer.from(certificate.publicKey.rawData), format: 'der', type: 'spki' });
  } catch {
    return false;
  }
  const mine = publicKeyIdentity(createPublicKey(key));
  return mine !== undefined && mine === publicKeyIdentity(certKey);
}
