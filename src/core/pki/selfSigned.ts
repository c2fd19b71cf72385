import type { Credentials } from './credentials.js';
import { signingAlgorithmFor, toPrivateKeyPem, type KeyPair } from './keys.js';
import { encodePem } from './pemBlocks.js';
import { normalizeSerial, randomSerial } from './serial.js';
import { x509 } from './x509.js';

/** A certificate whose subject and issuer are `CN=<commonName>`, signed by its own key. */
export async function selfSigned(
  keys: KeyPair,
  commonName: string,
  window: { notBefore: Date; notAfter: Date; serial?: string },
  extensions: x509.Extension[],
): Promise<Credentials> {
  const name = [{ CN: [commonName] }];
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: window.serial === undefined ? randomSerial() : normalizeSerial(window.serial),
    subject: name,
    issuer: name,
    notBefore: window.notBefore,
    notAfter: window.notAfter,
    publicKey: keys.publicKey,
    signingKey: keys.privateKey,
    signingAlgorithm: signingAlgorithmFor(keys.privateKey),
    extensions,
  });
  return { certPem: encodePem('CERTIFICATE', cert.rawData), keyPem: toPrivateKeyPem(keys.privateKey) };
}
