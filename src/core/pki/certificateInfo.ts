import { createPublicKey } from 'node:crypto';
import { nistCurveName } from './keys.js';
import { x509 } from './x509.js';

/** Go's `x509.PublicKeyAlgorithm.String()`; `0` is Go's spelling of "unknown". */
export type PublicKeyAlgorithm = 'RSA' | 'DSA' | 'ECDSA' | 'Ed25519' | '0';

/** What the CLI reports and checks about a certificate, decoded once. */
export interface CertificateInfo {
  subjectCN: string;
  /** First Organization of the subject; Go names CN-less certificates by it. */
  subjectOrganization?: string;
  issuerCN: string;
  /** Lowercase hex, no leading zero padding byte. */
  serialHex: string;
  /** Decimal, as linkerd prints serials (`%v` of a *big.Int). */
  serialDecimal: string;
  notBefore: Date;
  notAfter: Date;
  publicKeyAlgorithm: PublicKeyAlgorithm;
  curve?: 'P-224' | 'P-256' | 'P-384' | 'P-521';
  rsaBits?: number;
  /** Go's `x509.SignatureAlgorithm.String()`, e.g. `ECDSA-SHA256`, `SHA256-RSA`; `0` when unknown. */
  signatureAlgorithm: string;
  /** BasicConstraints present with cA set (Go's `BasicConstraintsValid && IsCA`). */
  isCA: boolean;
  basicConstraintsValid: boolean;
  /** BasicConstraints pathLenConstraint; -1 when absent (no limit), as in Go. */
  maxPathLen: number;
  /** KeyUsage bit flags (x509.KeyUsageFlags); 0 when the extension is absent. */
  keyUsage: number;
  /** ExtendedKeyUsage OIDs; empty when the extension is absent. */
  extKeyUsage: string[];
  dnsNames: string[];
  subjectKeyId?: string;
  authorityKeyId?: string;
}

const RSA_PKCS1_NAMES: Record<string, string> = {
  'SHA-1': 'SHA1-RSA',
  'SHA-256': 'SHA256-RSA',
  'SHA-384': 'SHA384-RSA',
  'SHA-512': 'SHA512-RSA',
};
const RSA_PSS_NAMES: Record<string, string> = {
  'SHA-256': 'SHA256-RSAPSS',
  'SHA-384': 'SHA384-RSAPSS',
  'SHA-512': 'SHA512-RSAPSS',
};
const ECDSA_NAMES: Record<string, string> = {
  'SHA-1': 'ECDSA-SHA1',
  'SHA-256': 'ECDSA-SHA256',
  'SHA-384': 'ECDSA-SHA384',
  'SHA-512': 'ECDSA-SHA512',
};

/** Go's name for the algorithm the certificate was signed with. */
export function signatureAlgorithmName(cert: x509.X509Certificate): string {
  let algorithm: { name?: string; hash?: { name?: string } | string };
  try {
    algorithm = cert.signatureAlgorithm;
  } catch {
    return '0';
  }
  const hash = typeof algorithm.hash === 'string' ? algorithm.hash : algorithm.hash?.name;
  const table: Record<string, Record<string, string>> = {
    'RSASSA-PKCS1-v1_5': RSA_PKCS1_NAMES,
    'RSA-PSS': RSA_PSS_NAMES,
    ECDSA: ECDSA_NAMES,
  };
  if (algorithm.name === 'Ed25519') return 'Ed25519';
  return (algorithm.name && hash && table[algorithm.name]?.[hash]) || '0';
}

function publicKeyDetails(cert: x509.X509Certificate): Pick<CertificateInfo, 'publicKeyAlgorithm' | 'curve' | 'rsaBits'> {
  try {
    const key = createPublicKey({ key: Buffer.from(cert.publicKey.rawData), format: 'der', type: 'spki' });
    switch (key.asymmetricKeyType) {
      case 'ec':
        return { publicKeyAlgorithm: 'ECDSA', curve: nistCurveName(key.asymmetricKeyDetails?.namedCurve) };
      case 'rsa':
        return { publicKeyAlgorithm: 'RSA', rsaBits: key.asymmetricKeyDetails?.modulusLength };
      case 'ed25519':
        return { publicKeyAlgorithm: 'Ed25519' };
      case 'dsa':
        return { publicKeyAlgorithm: 'DSA' };
      default:
        return { publicKeyAlgorithm: '0' };
    }
  } catch {
    return { publicKeyAlgorithm: '0' };
  }
}

function firstField(name: x509.Name, field: string): string | undefined {
  return name.getField(field)[0];
}

/** Decodes the facts linkerd's install, check and rotation logic look at. */
export function certificateInfo(cert: x509.X509Certificate): CertificateInfo {
  const basic = cert.getExtension(x509.BasicConstraintsExtension);
  const usage = cert.getExtension(x509.KeyUsagesExtension);
  const extUsage = cert.getExtension(x509.ExtendedKeyUsageExtension);
  const san = cert.getExtension(x509.SubjectAlternativeNameExtension);
  const ski = cert.getExtension(x509.SubjectKeyIdentifierExtension);
  const aki = cert.getExtension(x509.AuthorityKeyIdentifierExtension);
  const serialHex = cert.serialNumber.toLowerCase();
  return {
    subjectCN: firstField(cert.subjectName, 'CN') ?? '',
    subjectOrganization: firstField(cert.subjectName, 'O'),
    issuerCN: firstField(cert.issuerName, 'CN') ?? '',
    serialHex,
    serialDecimal: BigInt(`0x${serialHex || '0'}`).toString(10),
    notBefore: cert.notBefore,
    notAfter: cert.notAfter,
    ...publicKeyDetails(cert),
    signatureAlgorithm: signatureAlgorithmName(cert),
    isCA: basic?.ca === true,
    basicConstraintsValid: basic !== null,
    maxPathLen: basic?.pathLength ?? -1,
    keyUsage: usage?.usages ?? 0,
    extKeyUsage: Array.from(extUsage?.usages ?? [], String),
    dnsNames: san ? san.names.items.filter((n) => n.type === 'dns').map((n) => n.value) : [],
    subjectKeyId: ski?.keyId,
    authorityKeyId: aki?.keyId,
  };
}

export type AlgorithmSupport = { supported: true } | { supported: false; reason: string };

const CURVE_BITS: Record<string, number> = { 'P-224': 224, 'P-256': 256, 'P-384': 384, 'P-521': 521 };

/**
 * linkerd's issuer requirements (install and check): an ECDSA P-256 key, signed
 * with ECDSA-SHA256 or SHA256-RSA (an RSA anchor may sign the issuer).
 */
export function supportedIssuerAlgorithm(info: CertificateInfo): AlgorithmSupport {
  if (info.publicKeyAlgorithm !== 'ECDSA') {
    return {
      supported: false,
      reason: `issuer certificate must use ECDSA for public key algorithm, instead ${info.publicKeyAlgorithm} was used`,
    };
  }
  if (info.curve !== 'P-256') {
    return {
      supported: false,
      reason: `must use P-256 curve for public key, instead P-${CURVE_BITS[info.curve ?? ''] ?? 0} was used`,
    };
  }
  if (info.signatureAlgorithm !== 'ECDSA-SHA256' && info.signatureAlgorithm !== 'SHA256-RSA') {
    return { supported: false, reason: `must be signed by an ECDSA P-256 key, instead ${info.signatureAlgorithm} was used` };
  }
  return { supported: true };
}

/**
 * linkerd check's trust-anchor requirements: ECDSA P-256 or RSA 2048/4096 keys,
 * signed with ECDSA-SHA256 or SHA256-RSA. Install does not apply this.
 * The P-256 reason is linkerd's; the RSA-size, key-type and signature wordings could
 * not be confirmed against linkerd's source and may differ slightly.
 */
export function supportedAnchorAlgorithm(info: CertificateInfo): AlgorithmSupport {
  if (info.publicKeyAlgorithm === 'ECDSA') {
    if (info.curve !== 'P-256') {
      return {
        supported: false,
        reason: `must use P-256 curve for public key, instead P-${CURVE_BITS[info.curve ?? ''] ?? 0} was used`,
      };
    }
  } else if (info.publicKeyAlgorithm === 'RSA') {
    if (info.rsaBits !== 2048 && info.rsaBits !== 4096) {
      return {
        supported: false,
        reason: `must use RSA key of size 2048 or 4096 bits for public key, instead ${info.rsaBits ?? 0} bits were used`,
      };
    }
  } else {
    return {
      supported: false,
      reason: `must use ECDSA or RSA for public key algorithm, instead ${info.publicKeyAlgorithm} was used`,
    };
  }
  if (info.signatureAlgorithm !== 'ECDSA-SHA256' && info.signatureAlgorithm !== 'SHA256-RSA') {
    return {
      supported: false,
      reason: `must be signed by an ECDSA P-256 or RSA 2048/4096 key, instead ${info.signatureAlgorithm} was used`,
    };
  }
  return { supported: true };
}
