import { UserError } from '../errors.js';
import type { Credentials } from './credentials.js';
import { generateEcdsaP256Key, keyPairFromKeyObject, signingAlgorithmFor, toPrivateKeyPem, type KeyPair } from './keys.js';
import { parseCertificates } from './parseCertificates.js';
import { keyMatchesCertificate, parsePrivateKey } from './parsePrivateKey.js';
import { encodePem } from './pemBlocks.js';
import { normalizeSerial, randomSerial } from './serial.js';
import { assertValidityWindow } from './validityWindow.js';
import { x509 } from './x509.js';

export interface IssuerOptions {
  /** The signing anchor: its first certificate and its key (SEC1, PKCS#1 or PKCS#8). */
  anchor: Credentials;
  commonName: string;
  notBefore: Date;
  notAfter: Date;
  /** Hexadecimal; a random 128-bit serial when omitted. */
  serial?: string;
  /**
   * An extractable key pair to certify; a fresh ECDSA P-256 pair when omitted. Other
   * key types are accepted so tests can build the issuers linkerd must refuse.
   */
  keys?: KeyPair;
  /**
   * The anchor's own key pair, when the caller has just made the anchor with it (install's
   * generated PKI): the anchor is then used as made, not parsed back from its PEM and checked
   * against its key (about a sixth of an `install --ignore-cluster`).
   */
  anchorKeys?: KeyPair;
}

/** The anchor's first certificate and its key, parsed, the key checked to be the certificate's. */
async function checkedAnchor(anchor: Credentials): Promise<{ anchorCert: x509.X509Certificate; signer: KeyPair }> {
  const [anchorCert] = parseCertificates(anchor.certPem, 'trust anchor certificate');
  const anchorKey = parsePrivateKey(anchor.keyPem, 'trust anchor key');
  if (!keyMatchesCertificate(anchorKey.keyObject, anchorCert)) {
    throw new UserError('trust anchor key does not match the trust anchor certificate');
  }
  return { anchorCert, signer: await keyPairFromKeyObject(anchorKey.keyObject) };
}

/**
 * An intermediate CA signed by the anchor, in the shape of step's intermediate-ca
 * profile that linkerd documents: CA with pathlen 0 (it signs only workload
 * certificates), keyCertSign + cRLSign, subject and authority key ids, CN as DNS SAN.
 * The key is written as SEC1 `EC PRIVATE KEY`, what linkerd stores in `key.pem`.
 */
export async function createIssuer(opts: IssuerOptions): Promise<Credentials> {
  assertValidityWindow(opts.notBefore, opts.notAfter, 'issuer certificate');
  const { anchorCert, signer } = opts.anchorKeys
    ? { anchorCert: new x509.X509Certificate(opts.anchor.certPem), signer: opts.anchorKeys }
    : await checkedAnchor(opts.anchor);
  const keys = opts.keys ?? (await generateEcdsaP256Key());

  // Go sets the authority key id from the parent's subject key id, and omits it when the parent has none.
  const anchorKeyId = anchorCert.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: opts.serial === undefined ? randomSerial() : normalizeSerial(opts.serial),
    subject: [{ CN: [opts.commonName] }],
    issuer: anchorCert.subjectName,
    notBefore: opts.notBefore,
    notAfter: opts.notAfter,
    publicKey: keys.publicKey,
    signingKey: signer.privateKey,
    signingAlgorithm: signingAlgorithmFor(signer.privateKey),
    extensions: [
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      new x509.BasicConstraintsExtension(true, 0, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      ...(anchorKeyId ? [new x509.AuthorityKeyIdentifierExtension(anchorKeyId)] : []),
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: opts.commonName }]),
    ],
  });
  return { certPem: encodePem('CERTIFICATE', cert.rawData), keyPem: toPrivateKeyPem(keys.privateKey) };
}
