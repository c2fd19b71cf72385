import { createPublicKey } from 'node:crypto';
import type { PodCertificates } from '../../core/identity/podIdentity.js';
import { certificateInfo, x509 } from '../../core/pki/index.js';
import { terminalField } from './sanitize.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Go's `Jan 2 15:04:05 2006 MST` in UTC. */
function goDate(d: Date): string {
  const t = d.toISOString().slice(11, 19);
  return `${MONTHS[d.getUTCMonth()] ?? ''} ${d.getUTCDate()} ${t} ${d.getUTCFullYear()} UTC`;
}

/** Colon-separated hex, wrapped 15 bytes a line like openssl. */
function hexBlock(bytes: Uint8Array, indent: string): string[] {
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0'));
  const lines: string[] = [];
  for (let i = 0; i < hex.length; i += 15) lines.push(`${indent}${hex.slice(i, i + 15).join(':')}${i + 15 < hex.length ? ':' : ''}`);
  return lines;
}

const KEY_USAGES: Array<[number, string]> = [
  [x509.KeyUsageFlags.digitalSignature, 'Digital Signature'],
  [x509.KeyUsageFlags.nonRepudiation, 'Content Commitment'],
  [x509.KeyUsageFlags.keyEncipherment, 'Key Encipherment'],
  [x509.KeyUsageFlags.dataEncipherment, 'Data Encipherment'],
  [x509.KeyUsageFlags.keyAgreement, 'Key Agreement'],
  [x509.KeyUsageFlags.keyCertSign, 'Certificate Sign'],
  [x509.KeyUsageFlags.cRLSign, 'CRL Sign'],
];
const EKU: Record<string, string> = { '1.3.6.1.5.5.7.3.1': 'TLS Web Server Authentication', '1.3.6.1.5.5.7.3.2': 'TLS Web Client Authentication' };

function publicKeyLines(cert: x509.X509Certificate): string[] {
  const key = createPublicKey({ key: Buffer.from(cert.publicKey.rawData), format: 'der', type: 'spki' });
  const jwk = key.export({ format: 'jwk' });
  const i = ' '.repeat(16);
  if (jwk.kty === 'EC' && jwk.x && jwk.y) {
    const x = Buffer.from(jwk.x, 'base64url');
    return [
      `${' '.repeat(12)}Public Key Algorithm: ECDSA`,
      `${i}Public-Key: (${x.length * 8} bit)`,
      `${i}X:`,
      ...hexBlock(x, `${i}    `),
      `${i}Y:`,
      ...hexBlock(Buffer.from(jwk.y, 'base64url'), `${i}    `),
      `${i}Curve: ${jwk.crv ?? ''}`,
    ];
  }
  if (jwk.kty === 'RSA' && jwk.n) {
    const n = Buffer.from(jwk.n, 'base64url');
    return [
      `${' '.repeat(12)}Public Key Algorithm: RSA`,
      `${i}Public-Key: (${n.length * 8} bit)`,
      `${i}Modulus:`,
      ...hexBlock(n, `${i}    `),
      `${i}Exponent: 65537 (0x10001)`,
    ];
  }
  return [`${' '.repeat(12)}Public Key Algorithm: ${key.asymmetricKeyType ?? 'unknown'}`];
}

function extensionLines(cert: x509.X509Certificate): string[] {
  const out: string[] = [];
  const i = ' '.repeat(16);
  const crit = (e: x509.Extension) => (e.critical ? ' critical' : '');
  const ku = cert.getExtension(x509.KeyUsagesExtension);
  if (ku)
    out.push(
      `${' '.repeat(12)}X509v3 Key Usage:${crit(ku)}`,
      `${i}${KEY_USAGES.filter(([f]) => (ku.usages & f) !== 0)
        .map(([, n]) => n)
        .join(', ')}`,
    );
  const eku = cert.getExtension(x509.ExtendedKeyUsageExtension);
  if (eku) out.push(`${' '.repeat(12)}X509v3 Extended Key Usage:${crit(eku)}`, `${i}${eku.usages.map((u) => EKU[String(u)] ?? String(u)).join(', ')}`);
  const bc = cert.getExtension(x509.BasicConstraintsExtension);
  if (bc) out.push(`${' '.repeat(12)}X509v3 Basic Constraints:${crit(bc)}`, `${i}CA:${bc.ca ? 'TRUE' : 'FALSE'}`);
  const aki = cert.getExtension(x509.AuthorityKeyIdentifierExtension);
  if (aki?.keyId) out.push(`${' '.repeat(12)}X509v3 Authority Key Identifier:`, `${i}keyid:${(aki.keyId.match(/.{2}/g) ?? []).join(':').toUpperCase()}`);
  const san = cert.getExtension(x509.SubjectAlternativeNameExtension);
  if (san)
    out.push(
      `${' '.repeat(12)}X509v3 Subject Alternative Name:${crit(san)}`,
      `${i}${san.names.items.map((n) => `${n.type === 'dns' ? 'DNS' : n.type.toUpperCase()}:${terminalField(n.value)}`).join(', ')}`,
    );
  return out.length > 0 ? [`${' '.repeat(8)}X509v3 extensions:`, ...out] : [];
}

/** An openssl-style text dump of one certificate, the shape the real CLI prints. */
export function certificateText(cert: x509.X509Certificate): string {
  const info = certificateInfo(cert);
  const serial =
    info.serialHex.length <= 16
      ? `${info.serialDecimal} (0x${info.serialHex})`
      : `\n${hexBlock(Buffer.from(info.serialHex.padStart(info.serialHex.length + (info.serialHex.length % 2), '0'), 'hex'), ' '.repeat(16)).join('\n')}`;
  return [
    'Certificate:',
    '    Data:',
    '        Version: 3 (0x2)',
    `        Serial Number: ${serial}`,
    `    Signature Algorithm: ${info.signatureAlgorithm}`,
    `        Issuer: ${terminalField(cert.issuer)}`,
    '        Validity',
    `            Not Before: ${goDate(info.notBefore)}`,
    `            Not After : ${goDate(info.notAfter)}`,
    `        Subject: ${terminalField(cert.subject)}`,
    '        Subject Public Key Info:',
    ...publicKeyLines(cert),
    ...extensionLines(cert),
    '',
    `    Signature Algorithm: ${info.signatureAlgorithm}`,
    ...hexBlock(new Uint8Array(cert.signature), ' '.repeat(9)),
    '',
  ].join('\n');
}

/** `\nPOD <name> (<i> of <n>)\n\n` and each certificate's text, per pod. */
export function podIdentityText(results: readonly PodCertificates[]): string {
  return results.map((r, i) => `\nPOD ${terminalField(r.pod)} (${i + 1} of ${results.length})\n\n${r.certificates.map(certificateText).join('\n')}`).join('');
}
