import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';
import { x509 } from './x509.js';

/** What Go's x509 parser calls the extensions whose contents it decodes (and we print). */
const EXTENSION_NAMES: Record<string, string> = {
  '2.5.29.19': 'basic constraints',
  '2.5.29.15': 'key usage',
  '2.5.29.37': 'extended key usages',
  '2.5.29.17': 'subject alternative names',
  '2.5.29.14': 'subject key identifier',
  '2.5.29.35': 'authority key identifier',
  '2.5.29.30': 'name constraints',
  '2.5.29.32': 'certificate policies',
  '2.5.29.31': 'CRL distribution points',
  '1.3.6.1.5.5.7.1.1': 'authority information access',
};

/** Reads the decoded fields of the extensions we use, so a wrong inner type fails here and not while printing. */
function readFields(extension: x509.Extension): void {
  const read = (...values: unknown[]) => values.length;
  if (extension instanceof x509.BasicConstraintsExtension) read(extension.ca, extension.pathLength);
  else if (extension instanceof x509.KeyUsagesExtension) read(extension.usages);
  else if (extension instanceof x509.ExtendedKeyUsageExtension) read(extension.usages.map(String));
  else if (extension instanceof x509.SubjectAlternativeNameExtension) read(extension.names.items.map((n) => [n.type, n.value]));
  else if (extension instanceof x509.SubjectKeyIdentifierExtension) read(extension.keyId);
  else if (extension instanceof x509.AuthorityKeyIdentifierExtension) read(extension.keyId);
}

/**
 * The first extension of a certificate that does not decode, named as Go names it, or undefined.
 * OpenSSL signs extensions with any inner DER, and @peculiar/x509 decodes them lazily and throws
 * schema errors on first use; checking each one up front turns that into one refusal that says which.
 */
export function extensionProblem(der: Uint8Array): string | undefined {
  const extensions = AsnConvert.parse(der, Certificate).tbsCertificate.extensions;
  if (extensions === undefined) return undefined;
  for (const raw of extensions) {
    try {
      readFields(x509.ExtensionFactory.create(AsnConvert.serialize(raw)));
    } catch {
      return `x509: invalid ${EXTENSION_NAMES[raw.extnID] ?? 'extension'} (extension ${raw.extnID})`;
    }
  }
  return undefined;
}
