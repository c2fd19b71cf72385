import { UserError } from '../errors.js';
import { PemReader } from './pemBlocks.js';
import { parseCertificateDer } from './parseCertificates.js';
import type { x509 } from './x509.js';

/** A bundle may hold a few anchors; more is not a trust bundle. */
export const MAX_BUNDLE_CERTIFICATES = 64;

export interface BundleEntry {
  certificate: x509.X509Certificate;
  /** 1-based line of its BEGIN line. */
  line: number;
}

/** Letters whose names start with a vowel sound (an EC…, an RSA…, an X509…). */
const VOWEL_SOUND_LETTERS = 'AEFHILMNORSX';

/**
 * `a` or `an` before a PEM block type, as it is read aloud: initials (`EC`, `RSA`, `X509`) by
 * their first letter's name, words (`PRIVATE`, `ENCRYPTED`) by their first sound.
 */
export function articleFor(blockType: string): 'a' | 'an' {
  const first = blockType.split(' ')[0] ?? '';
  const initials = (first.length <= 3 && first !== 'NEW') || /\d/.test(first);
  if (initials) return VOWEL_SOUND_LETTERS.includes(first[0] ?? '') ? 'an' : 'a';
  return /^[AEIOU]/i.test(first) ? 'an' : 'a';
}

/**
 * A strict reading of a PEM certificate bundle, for files the user hands over: only
 * `CERTIFICATE` blocks, separated by nothing but blank space. Go's PEM decoder (and linkerd)
 * silently skips text between blocks, which hides a truncated or pasted-over bundle; here it
 * is an error naming the line.
 */
export function parseBundle(text: string, source: string): BundleEntry[] {
  const reader = new PemReader(text);
  const entries: BundleEntry[] = [];
  // Lines between blocks must be blank; a BEGIN line there is a block the reader had to skip.
  const checkGap = (from: number, to: number, last: boolean) => {
    for (let i = from; i < to; i++) {
      const line = reader.lineText(i);
      if (line.trim() === '') continue;
      if (line.startsWith('-----BEGIN ')) throw new UserError(`${source}:${i + 1}: malformed PEM block`);
      const what = entries.length === 0 ? 'text before the first PEM block' : last ? 'text after the last PEM block' : 'text between PEM blocks';
      throw new UserError(`${source}:${i + 1}: unexpected ${what}`);
    }
  };
  for (;;) {
    const from = reader.position;
    const found = reader.next();
    if (found === undefined) {
      checkGap(from, reader.lineCount, true);
      break;
    }
    checkGap(from, found.beginLine, false);
    const line = found.beginLine + 1;
    if (found.block.type !== 'CERTIFICATE')
      throw new UserError(`${source}:${line}: ${articleFor(found.block.type)} ${found.block.type} block where a CERTIFICATE was expected`);
    const parsed = parseCertificateDer(found.block.bytes);
    if (!parsed.ok) throw new UserError(`${source}:${line}: ${parsed.reason}`);
    entries.push({ certificate: parsed.certificate, line });
    if (entries.length > MAX_BUNDLE_CERTIFICATES) throw new UserError(`${source}: more than ${MAX_BUNDLE_CERTIFICATES} certificates`);
  }
  if (entries.length === 0) throw new UserError(`${source}: no certificates found`);
  return entries;
}
