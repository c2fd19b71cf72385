import { certificateInfo, expiringSoon, fingerprintSha256, formatRFC3339, validityProblem, verifyChain, x509 } from '../pki/index.js';

export type CertificateStatus = 'valid' | 'expiring-soon' | 'expired' | 'not-yet-valid';

/** Whether a certificate verifies up to one of the given anchors. */
export type ChainResult = { ok: true; anchorSubject: string; anchorSha256: string } | { ok: false; reason: string };

/** What `identity inspect` (and `rotate status`) shows about one certificate. */
export interface CertificateReport {
  /** Where it came from: `file:line`, or the object and key. */
  source: string;
  subject: string;
  issuer: string;
  /** Lowercase hexadecimal. */
  serial: string;
  sans: string[];
  /** `ECDSA P-256`, `RSA 2048`. */
  keyAlgorithm: string;
  signatureAlgorithm: string;
  isCA: boolean;
  /** BasicConstraints path length; null when unlimited or not a CA. */
  pathLength: number | null;
  notBefore: string;
  notAfter: string;
  /** Milliseconds until NotAfter at the time of the report; negative once expired. */
  timeLeftMs: number;
  status: CertificateStatus;
  /** Hex SHA-256 of the DER, as `openssl x509 -fingerprint -sha256` without colons. */
  sha256: string;
  /** Only when anchors were given. */
  chainsTo?: ChainResult;
}

function sanList(cert: x509.X509Certificate): string[] {
  const san = cert.getExtension(x509.SubjectAlternativeNameExtension);
  if (!san) return [];
  const prefix: Record<string, string> = { dns: 'DNS', ip: 'IP', url: 'URI', email: 'email' };
  return san.names.items.map((n) => `${prefix[n.type] ?? n.type}:${n.value}`);
}

function keyAlgorithm(info: ReturnType<typeof certificateInfo>): string {
  if (info.publicKeyAlgorithm === 'ECDSA') return `ECDSA ${info.curve ?? 'unknown curve'}`;
  if (info.publicKeyAlgorithm === 'RSA') return `RSA ${info.rsaBits ?? '?'}`;
  return info.publicKeyAlgorithm === '0' ? 'unknown' : info.publicKeyAlgorithm;
}

export function certificateStatus(info: { notBefore: Date; notAfter: Date }, now: Date): CertificateStatus {
  const problem = validityProblem(info, now);
  if (problem !== undefined) return problem.startsWith('not valid before') ? 'not-yet-valid' : 'expired';
  return expiringSoon(info, now) === undefined ? 'valid' : 'expiring-soon';
}

/**
 * The report for one certificate; with `anchors`, whether it verifies up to one of them
 * (through `intermediates`) the way Go's x509 would.
 */
export async function certificateReport(
  cert: x509.X509Certificate,
  source: string,
  now: Date,
  chain?: { anchors: readonly x509.X509Certificate[]; intermediates: readonly x509.X509Certificate[] },
): Promise<CertificateReport> {
  const info = certificateInfo(cert);
  const report: CertificateReport = {
    source,
    subject: cert.subject,
    issuer: cert.issuer,
    serial: info.serialHex,
    sans: sanList(cert),
    keyAlgorithm: keyAlgorithm(info),
    signatureAlgorithm: info.signatureAlgorithm,
    isCA: info.isCA,
    pathLength: info.isCA && info.maxPathLen >= 0 ? info.maxPathLen : null,
    notBefore: formatRFC3339(info.notBefore),
    notAfter: formatRFC3339(info.notAfter),
    timeLeftMs: info.notAfter.getTime() - now.getTime(),
    status: certificateStatus(info, now),
    sha256: fingerprintSha256(cert),
  };
  if (chain) {
    const v = await verifyChain(cert, chain.intermediates, chain.anchors, now);
    const top = v.ok ? v.chain[v.chain.length - 1] : undefined;
    report.chainsTo =
      v.ok && top ? { ok: true, anchorSubject: top.subject, anchorSha256: fingerprintSha256(top) } : { ok: false, reason: v.ok ? 'no chain' : v.reason };
  }
  return report;
}
