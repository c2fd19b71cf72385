import { createPublicKey, KeyObject } from 'node:crypto';
import { UserError } from '../errors.js';
import { subtle, type CryptoKey, type CryptoKeyPair } from './x509.js';

/** A WebCrypto key pair, the form @peculiar/x509 signs with. */
export type KeyPair = CryptoKeyPair;

export type EcdsaCurve = 'P-256' | 'P-384' | 'P-521';
export type KeyAlgorithm = 'ecdsa-p256' | 'rsa-2048' | 'rsa-4096';

/** Node's names for the NIST curves that Go's crypto/x509 accepts. */
const NODE_CURVES: Record<string, EcdsaCurve | 'P-224'> = {
  prime256v1: 'P-256',
  secp384r1: 'P-384',
  secp521r1: 'P-521',
  secp224r1: 'P-224',
};

/** `P-256` for node's `prime256v1` etc.; undefined for curves Go's x509 cannot parse. */
export function nistCurveName(nodeCurve: string | undefined): EcdsaCurve | 'P-224' | undefined {
  return nodeCurve === undefined ? undefined : NODE_CURVES[nodeCurve];
}

export async function generateEcdsaKey(curve: EcdsaCurve): Promise<KeyPair> {
  return await subtle.generateKey({ name: 'ECDSA', namedCurve: curve }, true, ['sign', 'verify']);
}

/** A fresh ECDSA P-256 key pair: the only issuer key linkerd accepts. */
export function generateEcdsaP256Key(): Promise<KeyPair> {
  return generateEcdsaKey('P-256');
}

/**
 * A fresh RSA key pair (PKCS#1 v1.5 signatures with SHA-256, exponent 65537). Sizes
 * down to 1024 are allowed so tests can build the anchors `check` must reject;
 * linkerd itself accepts only 2048 and 4096.
 */
export async function generateRsaKey(bits: number): Promise<KeyPair> {
  if (!Number.isInteger(bits) || bits < 1024 || bits % 8 !== 0) {
    throw new UserError(`unsupported RSA key size ${bits}: use at least 1024 bits, a multiple of 8`);
  }
  return await subtle.generateKey({ name: 'RSASSA-PKCS1-v1_5', modulusLength: bits, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, [
    'sign',
    'verify',
  ]);
}

export function generateKeyPair(algorithm: KeyAlgorithm): Promise<KeyPair> {
  switch (algorithm) {
    case 'ecdsa-p256':
      return generateEcdsaP256Key();
    case 'rsa-2048':
      return generateRsaKey(2048);
    case 'rsa-4096':
      return generateRsaKey(4096);
  }
}

function webCryptoImportAlgorithm(key: KeyObject): { name: string; namedCurve?: string; hash?: string } {
  if (key.asymmetricKeyType === 'ec') {
    const curve = nistCurveName(key.asymmetricKeyDetails?.namedCurve);
    if (curve === undefined || curve === 'P-224') {
      throw new UserError(`unsupported elliptic curve '${key.asymmetricKeyDetails?.namedCurve ?? 'unknown'}'`);
    }
    return { name: 'ECDSA', namedCurve: curve };
  }
  if (key.asymmetricKeyType === 'rsa') return { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  throw new UserError(`unsupported private key type '${key.asymmetricKeyType ?? 'unknown'}'`);
}

/**
 * Turns a node private KeyObject into the WebCrypto pair x509 signs with, so an
 * existing key (a pinned test key, an anchor being reused) can sign certificates.
 */
export async function keyPairFromKeyObject(privateKey: KeyObject): Promise<KeyPair> {
  const algorithm = webCryptoImportAlgorithm(privateKey);
  const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'der' });
  const spki = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  const [priv, pub] = await Promise.all([
    subtle.importKey('pkcs8', pkcs8, algorithm, true, ['sign']),
    subtle.importKey('spki', spki, algorithm, true, ['verify']),
  ]);
  return { privateKey: priv, publicKey: pub };
}

function keyObjectOf(key: CryptoKey | KeyObject): KeyObject {
  return key instanceof KeyObject ? key : KeyObject.from(key);
}

/** SEC1 `EC PRIVATE KEY` PEM, the encoding linkerd stores issuer keys in. */
export function toSec1Pem(key: CryptoKey | KeyObject): string {
  const object = keyObjectOf(key);
  if (object.asymmetricKeyType !== 'ec') {
    throw new UserError(`cannot encode a ${object.asymmetricKeyType ?? 'non-asymmetric'} key as SEC1: not an EC key`);
  }
  return object.export({ type: 'sec1', format: 'pem' }).toString();
}

/** PKCS#1 `RSA PRIVATE KEY` PEM, what Sprig's genSelfSignedCert emits. */
export function toPkcs1Pem(key: CryptoKey | KeyObject): string {
  const object = keyObjectOf(key);
  if (object.asymmetricKeyType !== 'rsa') {
    throw new UserError(`cannot encode a ${object.asymmetricKeyType ?? 'non-asymmetric'} key as PKCS#1: not an RSA key`);
  }
  return object.export({ type: 'pkcs1', format: 'pem' }).toString();
}

/** The traditional PEM linkerd writes for a key: SEC1 for EC, PKCS#1 for RSA. */
export function toPrivateKeyPem(key: CryptoKey | KeyObject): string {
  return keyObjectOf(key).asymmetricKeyType === 'rsa' ? toPkcs1Pem(key) : toSec1Pem(key);
}

/**
 * The signature algorithm Go's x509.CreateCertificate picks for a signing key:
 * SHA-256 with RSA; ECDSA with the hash matching the curve size.
 */
export function signingAlgorithmFor(key: CryptoKey): { name: string; hash: string } {
  const algorithm = key.algorithm as { name: string; namedCurve?: string };
  if (algorithm.name === 'ECDSA') {
    const hash = algorithm.namedCurve === 'P-384' ? 'SHA-384' : algorithm.namedCurve === 'P-521' ? 'SHA-512' : 'SHA-256';
    return { name: 'ECDSA', hash };
  }
  return { name: algorithm.name, hash: 'SHA-256' };
}
