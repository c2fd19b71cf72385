import { UserError } from '../errors.js';
import { decodePemBlock } from './pemBlocks.js';
import { decodeCertificates } from './parseCertificates.js';
import type { x509 } from './x509.js';

/** A bundle may hold a few anchors; more is not a trust bundle. */
export const MAX_BUNDLE_CERTIFICATES = 64;

export interface BundleEntry {
  certificate: x509.X509Certificate;
  /** 1-based line of its BEGIN line. */
  line: number;
}

const lineAt = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

/**
 * A strict reading of a PEM certificate bundle, for files the user hands over: only
 * `CERTIFICATE` blocks, separated by nothing but blank space. Go's PEM decoder (and linkerd)
 * silently skips text between blocks, which hides a truncated or pasted-over bundle; here it
 * is an error naming the line.
 */
export function parseBundle(text: string, source: string): BundleEntry[] {
  const entries: BundleEntry[] = [];
  let offset = 0;
  for (;;) {
    const rest = text.slice(offset);
    const begin = rest.indexOf('-----BEGIN ');
    const gap = begin < 0 ? rest : rest.slice(0, begin);
    const stray = gap.search(/\S/);
    if (stray >= 0) {
      const what = entries.length === 0 ? 'text before the first PEM block' : begin < 0 ? 'text after the last PEM block' : 'text between PEM blocks';
      throw new UserError(`${source}:${lineAt(text, offset + stray)}: unexpected ${what}`);
    }
    if (begin < 0) break;
    const line = lineAt(text, offset + begin);
    // One block: from BEGIN to the end of the first END line after it.
    const end = rest.indexOf('\n-----END ', begin);
    const eol = end < 0 ? -1 : rest.indexOf('\n', end + 1);
    const consumed = (end < 0 ? rest.length : eol < 0 ? rest.length : eol + 1) - begin;
    const blockText = rest.slice(begin, begin + consumed);
    const decoded = decodePemBlock(blockText);
    if (decoded === undefined || decoded.rest.trim() !== '') throw new UserError(`${source}:${line}: malformed PEM block`);
    if (decoded.block.type !== 'CERTIFICATE') {
      throw new UserError(`${source}:${line}: a ${decoded.block.type} block where a CERTIFICATE was expected`);
    }
    const parsed = decodeCertificates(blockText.endsWith('\n') ? blockText : `${blockText}\n`);
    const certificate = parsed.ok ? parsed.certificates[0] : undefined;
    if (certificate === undefined) throw new UserError(`${source}:${line}: ${parsed.ok ? 'no certificate' : parsed.reason}`);
    entries.push({ certificate, line });
    if (entries.length > MAX_BUNDLE_CERTIFICATES) throw new UserError(`${source}: more than ${MAX_BUNDLE_CERTIFICATES} certificates`);
    offset += begin + consumed;
  }
  if (entries.length === 0) throw new UserError(`${source}: no certificates found`);
  return entries;
}
