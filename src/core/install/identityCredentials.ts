import { UserError } from '../errors.js';
import { checkIssuerCredentials, decodeCertificates, decodePrivateKey, generateIdentityCredentials, keyMatchesCertificate } from '../pki/index.js';
import type { Values } from '../values/index.js';
import { ISSUER_SECRET } from '../mesh/names.js';

/*
 * linkerd's initializeIssuerCredentials: use the external issuer's Secret, validate
 * supplied credentials, or generate a fresh chain. Unlike the Go CLI, which generates one
 * self-signed certificate serving as both, the generated chain is a trust anchor and an issuer
 * it signs, so the anchor key can be kept offline (`--identity-trust-anchor-key-out`).
 */

/** Where each credential came from, to name it in errors: a flag with its file, or a values path. */
export interface CredentialSources {
  trustAnchors?: string;
  issuerCertificate?: string;
  issuerKey?: string;
}

/** The external issuer's Secret (`ca.crt`, `tls.crt`, `tls.key`), read from the cluster. */
export interface ExternalIssuerData {
  anchors: string;
  crt: string;
  key: string;
}

export interface IdentityCredentialOptions {
  namespace: string;
  now: Date;
  /** Flags naming the files the PEMs were read from (`--identity-issuer-certificate-file x.pem`). */
  sources: CredentialSources;
  anchorValidityMs: number;
  issuerValidityMs: number;
  /** Reads the external issuer's Secret; absent with --ignore-cluster. */
  readExternalIssuer?: () => Promise<ExternalIssuerData>;
}

export interface IdentityCredentials {
  values: Values;
  /** The generated trust anchor's private key (SEC1 PEM); only when the chain was generated. */
  trustAnchorKeyPem?: string;
}

const LABELS = {
  trustAnchors: 'identityTrustAnchorsPEM',
  issuerCertificate: 'identity.issuer.tls.crtPEM',
  issuerKey: 'identity.issuer.tls.keyPEM',
} as const;

type Part = keyof typeof LABELS;

/** Which inputs a failed validation is about, following the order linkerd checks them in. */
function blame(crtPem: string, keyPem: string, anchorsPem: string): Part[] {
  const key = decodePrivateKey(keyPem);
  if (!key.ok) return ['issuerKey'];
  const crt = decodeCertificates(crtPem);
  const leaf = crt.ok ? crt.certificates[0] : undefined;
  if (leaf === undefined) return ['issuerCertificate'];
  if (!keyMatchesCertificate(key.key.keyObject, leaf)) return ['issuerKey', 'issuerCertificate'];
  const anchors = decodeCertificates(anchorsPem);
  if (!anchors.ok || anchors.certificates.length === 0) return ['trustAnchors'];
  return ['issuerCertificate'];
}

function describe(parts: Part[], sources: CredentialSources): string {
  return parts.map((p) => sources[p] ?? LABELS[p]).join(', ');
}

/** Validates issuer credentials; a failure names the file(s) at fault after linkerd's reason. */
async function validate(crtPem: string, keyPem: string, anchorsPem: string, now: Date, where: (parts: Part[]) => string): Promise<void> {
  const result = await checkIssuerCredentials({ crtPem, keyPem, anchorsPem, now });
  if (result.ok) return;
  let parts = blame(crtPem, keyPem, anchorsPem);
  // A chain that does not verify is about the issuer and the anchors together.
  if (parts.length === 1 && parts[0] === 'issuerCertificate' && /x509:/.test(result.reason)) parts = ['issuerCertificate', 'trustAnchors'];
  throw new UserError(`failed to validate issuer credentials: ${result.reason} (${where(parts)})`);
}

/**
 * Validates the issuer credentials held in the values (scheme `linkerd.io/tls`), naming the
 * flag's file (or the values path) at fault; upgrade's check of kept or newly given credentials.
 */
export async function validateIssuerValues(values: Values, sources: CredentialSources, now: Date): Promise<void> {
  const tls = values.identity.issuer.tls;
  await validate(tls.crtPEM, tls.keyPEM, values.identityTrustAnchorsPEM, now, (parts) => describe(parts, sources));
}

export async function initializeIdentityCredentials(input: Values, opts: IdentityCredentialOptions): Promise<IdentityCredentials> {
  const values = structuredClone(input);
  const tls = values.identity.issuer.tls;

  if (values.identity.issuer.scheme === 'kubernetes.io/tls') {
    if (opts.sources.issuerCertificate) {
      throw new UserError('--identity-issuer-certificate-file must not be specified if --identity-external-issuer=true');
    }
    if (opts.sources.issuerKey) throw new UserError('--identity-issuer-key-file must not be specified if --identity-external-issuer=true');
    // A key from -f/--set/--set-file would otherwise be kept in the linkerd-config-overrides Secret.
    if (tls.keyPEM !== '' || tls.crtPEM !== '') {
      throw new UserError(
        `identity.issuer.tls.${tls.keyPEM !== '' ? 'keyPEM' : 'crtPEM'} must not be set if --identity-external-issuer=true: the issuer is read from Secret ${opts.namespace}/${ISSUER_SECRET}, and values given here would be stored in the linkerd-config-overrides Secret`,
      );
    }
    if (!opts.readExternalIssuer) throw new UserError('--ignore-cluster is not supported when --identity-external-issuer=true');
    const external = await opts.readExternalIssuer();
    const secret = `Secret ${opts.namespace}/${ISSUER_SECRET}`;
    await validate(external.crt, external.key, external.anchors, opts.now, () => secret);
    values.identityTrustAnchorsPEM = external.anchors;
    return { values };
  }

  const supplied = [values.identityTrustAnchorsPEM, tls.crtPEM, tls.keyPEM].some((p) => p !== '');
  if (supplied) {
    if (!values.identityTrustAnchorsPEM) throw new UserError('a trust anchors file must be specified if other credentials are provided');
    if (!tls.crtPEM) throw new UserError('a certificate file must be specified if other credentials are provided');
    if (!tls.keyPEM) throw new UserError('a private key file must be specified if other credentials are provided');
    await validate(tls.crtPEM, tls.keyPEM, values.identityTrustAnchorsPEM, opts.now, (parts) => describe(parts, opts.sources));
    return { values };
  }

  const { anchor, issuer } = await generateIdentityCredentials({
    trustDomain: values.identityTrustDomain || values.clusterDomain,
    namespace: opts.namespace,
    now: opts.now,
    anchorValidity: opts.anchorValidityMs,
    issuerValidity: opts.issuerValidityMs,
  });
  values.identityTrustAnchorsPEM = anchor.certPem;
  tls.crtPEM = issuer.certPem;
  tls.keyPEM = issuer.keyPem;
  return { values, trustAnchorKeyPem: anchor.keyPem };
}
