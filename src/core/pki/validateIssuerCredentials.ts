import { UserError } from '../errors.js';
import { certificateInfo, supportedIssuerAlgorithm, type CertificateInfo } from './certificateInfo.js';
import { validityProblem } from './certificateValidity.js';
import { certificatesToPem, decodeCertificates } from './parseCertificates.js';
import { decodePrivateKey, keyMatchesCertificate, type PrivateKey } from './parsePrivateKey.js';
import { describeChainFailure, verifyChain } from './verifyChain.js';
import type { x509 } from './x509.js';

export interface IssuerCredentialsInput {
  /** Issuer certificate PEM; certificates after the first are its chain towards the anchors. */
  crtPem: string;
  keyPem: string;
  /** Trust anchors bundle PEM. */
  anchorsPem: string;
  now: Date;
}

export interface ValidIssuerCredentials {
  issuer: x509.X509Certificate;
  issuerInfo: CertificateInfo;
  /** Only the issuer certificate, re-encoded: what linkerd stores as `crt.pem`. */
  issuerPem: string;
  /** Extra certificates that followed the issuer in `crtPem`. */
  intermediates: x509.X509Certificate[];
  key: PrivateKey;
  anchors: x509.X509Certificate[];
  /** The verified path, issuer first, ending at one of the anchors. */
  chain: x509.X509Certificate[];
}

export type IssuerCredentialsCheck = ({ ok: true } & ValidIssuerCredentials) | { ok: false; reason: string };

/**
 * linkerd's `IssuerCertData.VerifyAndBuildCreds`, in its order and with its reasons:
 * key and certificate decode and match, issuer time validity, issuer algorithm,
 * issuer is a CA, anchors decode, and the issuer verifies against the anchors.
 * Returns the first failure's reason instead of throwing, for `check`.
 */
export async function checkIssuerCredentials(input: IssuerCredentialsInput): Promise<IssuerCredentialsCheck> {
  const key = decodePrivateKey(input.keyPem);
  if (!key.ok) return { ok: false, reason: `failed to read CA: ${key.reason}` };
  const crt = decodeCertificates(input.crtPem);
  if (!crt.ok) return { ok: false, reason: `failed to read CA: ${crt.reason}` };
  const [issuer, ...intermediates] = crt.certificates;
  // linkerd's DecodePEMCrt capitalises this one, unlike the anchors' "no certificates found".
  if (issuer === undefined) return { ok: false, reason: 'failed to read CA: No certificates found' };
  if (!keyMatchesCertificate(key.key.keyObject, issuer)) {
    return { ok: false, reason: 'failed to read CA: tls: Public and private key do not match' };
  }

  const issuerInfo = certificateInfo(issuer);
  const timeProblem = validityProblem(issuerInfo, input.now);
  if (timeProblem !== undefined) return { ok: false, reason: timeProblem };
  const algorithm = supportedIssuerAlgorithm(issuerInfo);
  if (!algorithm.supported) return { ok: false, reason: algorithm.reason };
  if (!issuerInfo.isCA) return { ok: false, reason: 'issuer cert is not a CA' };

  const anchors = decodeCertificates(input.anchorsPem);
  if (!anchors.ok) return { ok: false, reason: anchors.reason };
  if (anchors.certificates.length === 0) return { ok: false, reason: 'no certificates found' };

  const verified = await verifyChain(issuer, intermediates, anchors.certificates, input.now);
  if (!verified.ok) return { ok: false, reason: describeChainFailure(verified, issuer, input.now) };

  return {
    ok: true,
    issuer,
    issuerInfo,
    issuerPem: certificatesToPem([issuer]),
    intermediates,
    key: key.key,
    anchors: anchors.certificates,
    chain: verified.chain,
  };
}

/**
 * Install/upgrade's issuer validation: as checkIssuerCredentials, but a failure is a
 * UserError `failed to validate issuer credentials: <reason>`.
 */
export async function validateIssuerCredentials(input: IssuerCredentialsInput): Promise<ValidIssuerCredentials> {
  const result = await checkIssuerCredentials(input);
  if (!result.ok) throw new UserError(`failed to validate issuer credentials: ${result.reason}`);
  const { ok: _ok, ...valid } = result;
  return valid;
}
