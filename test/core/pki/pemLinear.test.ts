import { afterEach, describe, expect, it } from 'vitest';
import { decodeCertificates, decodePemBlock } from '../../../src/core/pki/index.js';
import { parseBundle } from '../../../src/core/pki/parseBundle.js';
import { fixture } from './fixtures.js';

const anchorPem = fixture('valid-trust-anchors.pem');
const [firstLine = '', ...bodyLines] = anchorPem.split('\n');

/** The same bundle with `junk` put inside the block, after its first base64 line. */
const withJunkInside = (junk: string) => [firstLine, bodyLines[0], junk + bodyLines.slice(1).join('\n')].join('\n');

/** Hostile shapes of about `bytes` each: many BEGIN lines inside one block, and one line of blanks. */
function hostile(bytes: number): Record<string, string> {
  const begins = '-----BEGIN CERTIFICATE-----\n'.repeat(Math.ceil(bytes / 28));
  return {
    'BEGIN lines before the block': begins + anchorPem,
    'BEGIN lines inside the block': withJunkInside(begins),
    'header-like BEGIN lines inside the block': withJunkInside('-----BEGIN a:b-----\nk: v\n\n'.repeat(Math.ceil(bytes / 26))),
    'one line of blanks inside the block': withJunkInside(`${' '.repeat(bytes)}x\n`),
  };
}

/**
 * Counts the characters string searches and copies go through: a decoder that rescans the text
 * for every candidate block shows up here as work growing with the square of the input.
 */
const restore: Array<() => void> = [];
afterEach(() => restore.splice(0).forEach((r) => r()));
function countStringWork(): { chars: number } {
  const work = { chars: 0 };
  const proto = String.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const wrap = (name: string, cost: (s: string, args: unknown[], result: unknown) => number) => {
    const original = proto[name];
    if (original === undefined) throw new Error(name);
    proto[name] = function (this: string, ...args: unknown[]) {
      const result = original.apply(this, args);
      work.chars += cost(this, args, result);
      return result;
    };
    restore.push(() => {
      proto[name] = original;
    });
  };
  const from = (args: unknown[]) => (typeof args[1] === 'number' ? args[1] : 0);
  wrap('indexOf', (s, args, r) => ((r as number) < 0 ? s.length : (r as number)) - from(args));
  wrap('slice', (_s, _a, r) => (r as string).length);
  wrap('replace', (s) => s.length);
  wrap('trim', (s) => s.length);
  wrap('split', (s) => s.length);
  return work;
}

describe('PEM decoding is linear in its input', () => {
  for (const [name, text] of Object.entries(hostile(64 * 1024))) {
    it(`reads ${name} with work proportional to its size`, () => {
      const work = countStringWork();
      const decoded = decodeCertificates(text);
      const chars = work.chars;
      restore.splice(0).forEach((r) => r());
      // Go's semantics are kept: the junk is skipped or refused, never half-read.
      if (name.startsWith('BEGIN lines before')) expect(decoded.ok && decoded.certificates.length).toBe(1);
      else expect(decoded.ok).toBe(false);
      expect(chars).toBeLessThan(10 * text.length);
    });
  }

  it('refuses junk inside a bundle block with the line of the block, at 960 KB', () => {
    const text = hostile(960 * 1024)['BEGIN lines inside the block'] ?? '';
    const work = countStringWork();
    expect(() => parseBundle(text, 'ca.crt')).toThrow('ca.crt:1: malformed PEM block');
    expect(work.chars).toBeLessThan(10 * text.length);
  });

  it('still finds a block after thousands of skipped candidates', () => {
    const decoded = decodePemBlock(hostile(960 * 1024)['BEGIN lines before the block'] ?? '');
    expect(decoded?.block.type).toBe('CERTIFICATE');
    expect(decoded?.rest).toBe('');
  });
});
