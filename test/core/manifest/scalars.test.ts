import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { inlineScalar, literalBlock, renderKey, resolvesToNonString, scalarStyle } from '../../../src/core/manifest/scalars.js';

describe('scalarStyle', () => {
  it('writes ordinary strings plain', () => {
    for (const s of [
      'linkerd-proxy',
      'cr.l5d.io/linkerd/proxy:edge-26.9.1',
      '--ipv6=false',
      '4190,4191,4567,4568',
      '$(_pod_sa).$(_pod_ns)',
      'linkerd/cli edge-26.9.1',
      '10.0.0.0/8,fd00::/8',
      'warn,linkerd=info,[{headers}]=off',
    ]) {
      expect(scalarStyle(s), s).toBe('PLAIN');
    }
  });

  it('double-quotes what a YAML 1.1 or 1.2 reader would not read back as a string', () => {
    for (const s of [
      '4143',
      '0777',
      '0x1F',
      '1e3',
      '1.5',
      '.inf',
      'true',
      'False',
      'on',
      'OFF',
      'yes',
      'y',
      'N',
      'null',
      '~',
      '',
      '2026-09-01',
      '1:20',
      '<<',
      '=',
    ]) {
      expect(scalarStyle(s), s).toBe('QUOTE_DOUBLE');
    }
  });

  it('double-quotes strings whose syntax would break a plain scalar', () => {
    for (const s of [
      'a: b',
      'x #y',
      '- item',
      '*alias',
      '&anchor',
      '!tag',
      '{a}',
      '[a]',
      "'q'",
      '"q"',
      ' lead',
      'trail ',
      'key:',
      '---',
      '% x',
      '@at',
      '`tick',
      '|pipe',
      '>fold',
      'tab\there',
    ]) {
      expect(scalarStyle(s), s).toBe('QUOTE_DOUBLE');
    }
  });

  it('uses a literal block for multi-line text, unless it starts with a space', () => {
    expect(scalarStyle('a\nb')).toBe('BLOCK_LITERAL');
    expect(scalarStyle(' a\nb')).toBe('QUOTE_DOUBLE');
    expect(scalarStyle('a\r\nb')).toBe('QUOTE_DOUBLE');
  });

  it('round-trips every style through a YAML 1.1 reader', () => {
    for (const s of ['4143', 'on', 'a: b', 'plain-text', '-x', 'é ü', '\u0007bell', 'a"b\\c']) {
      const inline = inlineScalar(s)!;
      expect(parse(`v: ${inline}\n`, { version: '1.1' }).v, s).toBe(s);
    }
  });
});

describe('literalBlock', () => {
  it('chooses clip, strip or keep chomping from the trailing newlines', () => {
    expect(literalBlock('a\nb').header).toBe('|-');
    expect(literalBlock('a\nb\n').header).toBe('|');
    expect(literalBlock('a\nb\n\n')).toEqual({ header: '|+', lines: ['a', 'b', ''] });
  });
});

describe('renderKey and resolvesToNonString', () => {
  it('quotes only keys that need it', () => {
    expect(renderKey('linkerd.io/inject')).toBe('linkerd.io/inject');
    expect(renderKey('on')).toBe('"on"');
    expect(resolvesToNonString('enabled')).toBe(false);
  });
});
