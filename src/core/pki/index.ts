/**
 * The certificate core shared by install (generate/validate identity and webhook
 * certificates), check (verify them) and issuer rotation. Everything random (keys,
 * serials) or time-bound (now, validity windows) is a parameter, so renders can be
 * pinned.
 */
export type { Credentials } from './credentials.js';
export {
  generateEcdsaKey,
  generateEcdsaP256Key,
  generateRsaKey,
  generateKeyPair,
  keyPairFromKeyObject,
  toSec1Pem,
  toPkcs1Pem,
  toPrivateKeyPem,
  signingAlgorithmFor,
  nistCurveName,
  type KeyPair,
  type KeyAlgorithm,
  type EcdsaCurve,
} from './keys.js';
export { randomSerial, normalizeSerial } from './serial.js';
export { createTrustAnchor, type TrustAnchorOptions } from './createTrustAnchor.js';
export { createIssuer, type IssuerOptions } from './createIssuer.js';
export { createWebhookCert, type WebhookCertOptions } from './createWebhookCert.js';
export {
  generateIdentityCredentials,
  DEFAULT_CERT_LIFETIME_MS,
  CLOCK_SKEW_ALLOWANCE_MS,
  type IdentityCredentialsOptions,
} from './generateIdentityCredentials.js';
export { decodePemBlock, encodePem, type PemBlock } from './pemBlocks.js';
export { decodeCertificates, parseCertificates, certificatesToPem, leafPem, type CertificatesDecoding } from './parseCertificates.js';
export { decodePrivateKey, parsePrivateKey, keyMatchesCertificate, type PrivateKey, type PrivateKeyDecoding } from './parsePrivateKey.js';
export {
  certificateInfo,
  signatureAlgorithmName,
  supportedAnchorAlgorithm,
  supportedIssuerAlgorithm,
  type CertificateInfo,
  type PublicKeyAlgorithm,
  type AlgorithmSupport,
} from './certificateInfo.js';
export { validityProblem, expiringSoon, EXPIRY_WARNING_DAYS } from './certificateValidity.js';
export { verifyChain, describeChainFailure, type ChainVerification, type ChainFailure, type ChainFailureKind, type VerifyChainOptions } from './verifyChain.js';
export {
  checkIssuerCredentials,
  validateIssuerCredentials,
  type IssuerCredentialsInput,
  type ValidIssuerCredentials,
  type IssuerCredentialsCheck,
} from './validateIssuerCredentials.js';
export { sha256Hex, fingerprintSha256 } from './fingerprint.js';
export { formatRFC3339, formatGoTime } from './formatRFC3339.js';
export { x509 } from './x509.js';
