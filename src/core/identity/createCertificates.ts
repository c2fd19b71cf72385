import { UserError } from '../errors.js';
import { readPemFile } from '../files/readPemFile.js';
import { writeSecretFiles } from '../files/writeSecretFile.js';
import {
  CLOCK_SKEW_ALLOWANCE_MS,
  certificateInfo,
  certificatesToPem,
  checkIssuerCredentials,
  createIssuer,
  createTrustAnchor,
  keyMatchesCertificate,
  parsePrivateKey,
  supportedAnchorAlgorithm,
  validityProblem,
  type CertificateInfo,
  type KeyAlgorithm,
} from '../pki/index.js';
import { parseBundle } from '../pki/parseBundle.js';
import { formatRFC3339 } from '../pki/formatRFC3339.js';
import { positiveDurationMs } from '../parse/goDuration.js';

export const KEY_TYPES: readonly KeyAlgorithm[] = ['ecdsa-p256', 'rsa-2048', 'rsa-4096'];

export interface CreateTrustAnchorRequest {
  certOut: string;
  keyOut: string;
  /** Default `root.linkerd.<trustDomain>`. */
  commonName?: string;
  trustDomain: string;
  /** Go duration. */
  validity: string;
  keyType: KeyAlgorithm;
  now?: Date;
}

export interface CreateIssuerRequest {
  trustAnchorFile: string;
  trustAnchorKeyFile: string;
  certOut: string;
  keyOut: string;
  /** Default `identity.<namespace>.<trustDomain>`, the name linkerd expects. */
  commonName?: string;
  namespace: string;
  trustDomain: string;
  validity: string;
  now?: Date;
}

export interface CreatedCertificate {
  certPath: string;
  keyPath: string;
  info: CertificateInfo;
  /** Lines for stderr. */
  notes: string[];
}

function infoOf(pem: string): CertificateInfo {
  const [entry] = parseBundle(pem, 'generated certificate');
  if (entry === undefined) throw new UserError('generated certificate: no certificate');
  return certificateInfo(entry.certificate);
}

/** `linkerd identity create-trust-anchor`: a self-signed root CA, written to two new files. */
export async function createTrustAnchorFiles(req: CreateTrustAnchorRequest): Promise<CreatedCertificate> {
  const now = (req.now ?? new Date()).getTime();
  const ms = positiveDurationMs('validity', req.validity);
  const anchor = await createTrustAnchor({
    commonName: req.commonName ?? `root.linkerd.${req.trustDomain}`,
    notBefore: new Date(now - CLOCK_SKEW_ALLOWANCE_MS),
    notAfter: new Date(now + ms + CLOCK_SKEW_ALLOWANCE_MS),
    algorithm: req.keyType,
  });
  writeSecretFiles([
    { path: req.certOut, content: anchor.certPem, mode: 0o644 },
    { path: req.keyOut, content: anchor.keyPem, mode: 0o600 },
  ]);
  return { certPath: req.certOut, keyPath: req.keyOut, info: infoOf(anchor.certPem), notes: [] };
}

/**
 * `linkerd identity create-issuer`: an issuer (ECDSA P-256, pathlen 0) signed by the given
 * anchor, refused unless the anchor is a usable CA now and the key is its own. The issuer never
 * outlives its anchor: a longer --validity is cut to the anchor's NotAfter, with a note.
 */
export async function createIssuerFiles(req: CreateIssuerRequest): Promise<CreatedCertificate> {
  const nowDate = req.now ?? new Date();
  const now = nowDate.getTime();
  const ms = positiveDurationMs('validity', req.validity);
  const anchorPem = readPemFile(req.trustAnchorFile);
  const keyPem = readPemFile(req.trustAnchorKeyFile);
  const key = parsePrivateKey(keyPem, req.trustAnchorKeyFile);
  const entries = parseBundle(anchorPem, req.trustAnchorFile);
  const entry = entries.find((e) => keyMatchesCertificate(key.keyObject, e.certificate));
  if (entry === undefined) {
    throw new UserError(
      `${req.trustAnchorKeyFile}: the key does not belong to ${entries.length === 1 ? 'the certificate' : 'any certificate'} in ${req.trustAnchorFile}`,
    );
  }
  const anchor = certificateInfo(entry.certificate);
  const where = `${req.trustAnchorFile}:${entry.line}`;
  if (!anchor.isCA) throw new UserError(`${where}: certificate ${anchor.subjectCN} is not a CA (basicConstraints CA:TRUE is required to sign an issuer)`);
  const time = validityProblem(anchor, nowDate);
  if (time !== undefined) throw new UserError(`${where}: trust anchor ${anchor.subjectCN} is ${time}`);
  const algorithm = supportedAnchorAlgorithm(anchor);
  if (!algorithm.supported) throw new UserError(`${where}: trust anchor ${algorithm.reason}`);

  const notes: string[] = [];
  let notAfter = now + ms + CLOCK_SKEW_ALLOWANCE_MS;
  if (notAfter > anchor.notAfter.getTime()) {
    notAfter = anchor.notAfter.getTime();
    notes.push(`The issuer's validity was cut to the trust anchor's: it expires ${formatRFC3339(anchor.notAfter)}`);
  }
  const issuer = await createIssuer({
    anchor: { certPem: certificatesToPem([entry.certificate]), keyPem },
    commonName: req.commonName ?? `identity.${req.namespace}.${req.trustDomain}`,
    notBefore: new Date(now - CLOCK_SKEW_ALLOWANCE_MS),
    notAfter: new Date(notAfter),
  }).catch((e: unknown) => {
    throw e instanceof UserError ? new UserError(`${req.trustAnchorFile}: ${e.message}`) : e;
  });
  // What install and the identity controller will check, before anything is written.
  const check = await checkIssuerCredentials({ crtPem: issuer.certPem, keyPem: issuer.keyPem, anchorsPem: anchorPem, now: nowDate });
  if (!check.ok) throw new UserError(`the new issuer does not validate against ${req.trustAnchorFile}: ${check.reason}`);
  writeSecretFiles([
    { path: req.certOut, content: issuer.certPem, mode: 0o644 },
    { path: req.keyOut, content: issuer.keyPem, mode: 0o600 },
  ]);
  return { certPath: req.certOut, keyPath: req.keyOut, info: check.issuerInfo, notes };
}
