import type { CertificateReport } from '../../core/identity/certificateReport.js';
import type { InspectReport } from '../../core/identity/inspect.js';
import { terminalField } from './sanitize.js';

const DAY = 86_400_000;

/** `364d 23h left`, `expired 3d 2h ago`. */
export function timeLeft(ms: number): string {
  const abs = Math.abs(ms);
  const days = Math.floor(abs / DAY);
  const hours = Math.floor((abs % DAY) / 3_600_000);
  const minutes = Math.floor((abs % 3_600_000) / 60_000);
  const span = days > 0 ? `${days}d ${hours}h` : hours > 0 ? `${hours}h ${minutes}m` : `${minutes}m`;
  return ms >= 0 ? `${span} left` : `expired ${span} ago`;
}

const colons = (hex: string) => (hex.match(/.{2}/g) ?? []).join(':').toUpperCase();

const STATUS: Record<CertificateReport['status'], string> = {
  valid: '',
  'expiring-soon': ' — expires within 60 days',
  expired: ' — EXPIRED',
  'not-yet-valid': ' — NOT YET VALID',
};

/** One certificate as aligned `Field: value` lines. */
export function certificateLines(c: CertificateReport, indent = '  '): string[] {
  const rows: Array<[string, string]> = [
    ['Subject', c.subject],
    ['Issuer', c.issuer],
    ['Serial', c.serial],
    ['SANs', c.sans.length > 0 ? c.sans.join(', ') : '(none)'],
    ['Key', c.keyAlgorithm],
    ['Signature', c.signatureAlgorithm],
    ['CA', c.isCA ? `yes${c.pathLength === null ? '' : ` (path length ${c.pathLength})`}` : 'no'],
    ['Not before', c.notBefore],
    ['Not after', `${c.notAfter} (${c.status === 'not-yet-valid' ? 'not valid yet' : timeLeft(c.timeLeftMs)})${STATUS[c.status]}`],
    ['SHA-256', colons(c.sha256)],
  ];
  if (c.chainsTo)
    rows.push(['Chains to', c.chainsTo.ok ? `${c.chainsTo.anchorSubject} (SHA-256 ${c.chainsTo.anchorSha256.slice(0, 16)}…)` : `NO: ${c.chainsTo.reason}`]);
  return rows.map(([k, v]) => `${indent}${`${k}:`.padEnd(12)}${terminalField(v)}`);
}

export function inspectText(report: InspectReport): string {
  const out: string[] = [];
  for (const s of report.sections) {
    s.certificates.forEach((c, i) => {
      out.push(`${terminalField(s.title)}: certificate ${i + 1} of ${s.certificates.length} (${terminalField(c.source)})`, ...certificateLines(c), '');
    });
  }
  for (const p of report.problems) out.push(`‼ ${terminalField(p)}`);
  if (report.problems.length > 0) out.push('');
  return out.join('\n');
}

export function inspectJson(report: InspectReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
