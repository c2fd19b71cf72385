import type { CreatedCertificate } from '../../core/identity/createCertificates.js';
import { timeLeft } from './identity-inspect.js';
import { terminalField } from './sanitize.js';
import { formatRFC3339 } from '../../core/pki/formatRFC3339.js';

/** What `create-trust-anchor`/`create-issuer` wrote, for stderr. */
export function createdText(what: string, c: CreatedCertificate): string {
  const left = timeLeft(c.info.notAfter.getTime() - Date.now());
  const key = c.info.publicKeyAlgorithm === 'RSA' ? `RSA ${c.info.rsaBits ?? ''}` : `ECDSA ${c.info.curve ?? ''}`;
  return [
    ...c.notes,
    `Created ${what} CN=${terminalField(c.info.subjectCN)} (${key}, valid until ${formatRFC3339(c.info.notAfter)}, ${left})`,
    `  certificate: ${c.certPath}`,
    `  private key: ${c.keyPath} (mode 0600)`,
    '',
  ].join('\n');
}
