import type { CertificateInfo } from './certificateInfo.js';
import { formatRFC3339 } from './formatRFC3339.js';

/** linkerd warns when a certificate expires within this many days. */
export const EXPIRY_WARNING_DAYS = 60;

/**
 * linkerd's `CheckCertValidityPeriod`: why the certificate is not valid at `now`
 * (`not valid before: …` / `not valid anymore. Expired on …`), or undefined.
 * The boundaries themselves count as valid, as in Go.
 */
export function validityProblem(info: Pick<CertificateInfo, 'notBefore' | 'notAfter'>, now: Date): string | undefined {
  if (info.notBefore.getTime() > now.getTime()) return `not valid before: ${formatRFC3339(info.notBefore)}`;
  if (info.notAfter.getTime() < now.getTime()) return `not valid anymore. Expired on ${formatRFC3339(info.notAfter)}`;
  return undefined;
}

/** linkerd's `CheckExpiringSoon`: `will expire on …` when NotAfter is within `days` of `now`, else undefined. */
export function expiringSoon(info: Pick<CertificateInfo, 'notAfter'>, now: Date, days: number = EXPIRY_WARNING_DAYS): string | undefined {
  const horizon = now.getTime() + days * 24 * 60 * 60 * 1000;
  return horizon > info.notAfter.getTime() ? `will expire on ${formatRFC3339(info.notAfter)}` : undefined;
}
