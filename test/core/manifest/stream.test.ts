import { describe, expect, it } from 'vitest';
import { hasContent, parseManifestStream } from '../../../src/core/manifest/stream.js';
import { renderStream } from '../../../src/core/manifest/write.js';

const stream = (text: string, name = 'in.yaml') => parseManifestStream({ name, text });

describe('parseManifestStream', () => {
  it('splits a YAML stream into documents that together cover every byte', () => {
    const text = '# lead\n\napiVersion: v1\nkind: A\n# tail of A\n---\n# before B\nkind: B\n...\n---   # marker\nkind: C\n';
    const s = stream(text);
    expect(s.format).toBe('yaml');
    expect(s.docs.map((d) => d.doc.get('kind'))).toEqual(['A', 'B', 'C']);
    expect(s.docs[0].region.start).toBe(0);
    s.docs.forEach((d, i) => {
      if (i > 0) expect(d.region.start).toBe(s.docs[i - 1].region.end);
    });
    expect(s.docs[s.docs.length - 1].region.end).toBe(text.length);
    expect(renderStream(s, [], 'auto').text).toBe(text);
  });

  it('marks documents with nothing but separators as absent, and comment-only ones as present', () => {
    const s = stream('---\n---\n# only a comment\n---\nkind: A\n');
    expect(s.docs.map((d) => d.present)).toEqual([false, true, true]);
  });

  it('reads YAML 1.1 like kubectl does: yes is a bool, 0777 octal, dates stay strings', () => {
    const s = stream('a: yes\nb: 0777\nc: 2026-09-01\nd: 1:20\n');
    expect(s.docs[0].doc.toJS()).toEqual({ a: true, b: 511, c: '2026-09-01', d: '1:20' });
  });

  it('recognises JSON input, including several concatenated values, and keeps what is between them', () => {
    const text = '{"kind": "A"}\n\n  {\n    "kind": "B"\n  }\n';
    const s = stream(text, 'in.json');
    expect(s.format).toBe('json');
    expect(s.docs.map((d) => d.doc.get('kind'))).toEqual(['A', 'B']);
    expect(s.docs.map((d) => d.jsonIndent)).toEqual([0, 4]);
    expect(renderStream(s, [], 'auto').text).toBe(text);
  });

  it('treats flow-style YAML that is not JSON as YAML', () => {
    expect(stream('{kind: A, metadata: {name: x}}\n').format).toBe('yaml');
  });

  it('reports a syntax error as FILE:LINE:COL: reason', () => {
    expect(() => stream('kind: A\nmetadata:\n  name: [x\n', 'bad.yaml')).toThrow(/^bad\.yaml:\d+:\d+: \S/);
    expect(() => stream('a: 1\na: 2\n', 'dup.yaml')).toThrow(/^dup\.yaml:2:1: Map keys must be unique/);
  });

  it('reports an alias to an anchor of another document where the alias is', () => {
    expect(() => stream('a: &x 1\n---\nb: *x\n', 'alias.yaml')).toThrow('alias.yaml:3:4: unknown anchor "x" (anchors do not carry across "---" documents)');
  });
});

describe('renderStream', () => {
  it('converts to compact JSON lines with -o json and to ---terminated YAML with -o yaml', () => {
    const y = stream('# c\nkind: A\n---\nkind: B\n');
    expect(renderStream(y, [], 'json').text).toBe('{"kind":"A"}\n{"kind":"B"}\n');
    const j = stream('{"kind": "A", "n": [1]}', 'x.json');
    expect(renderStream(j, [], 'yaml').text).toBe('kind: A\nn:\n- 1\n---\n');
  });

  it('refuses to expand an alias bomb', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (const l of 'bcdefgh')
      bomb.push(
        `${l}: &${l} [${Array(10)
          .fill(`*${String.fromCharCode(l.charCodeAt(0) - 1)}`)
          .join(', ')}]`,
      );
    const s = stream(bomb.join('\n') + '\n', 'bomb.yaml');
    expect(() => renderStream(s, [], 'json')).toThrow(/^bomb\.yaml:1:1: aliases expand it past 1,000,000 nodes/);
  });
});

describe('hasContent', () => {
  // The line-by-line definition the quick check must agree with.
  const byLines = (text: string) => text.split(/\r?\n/).some((l) => l.trim() !== '' && !/^(---|\.\.\.)(\s.*)?$/.test(l));

  it('agrees with the line-by-line definition on 50,000 random texts of markers, breaks and spaces', () => {
    const alphabet = ['-', '.', '---', '...', '\n', '\r', '\r\n', ' ', '\t', 'a', '#', '\u2028', '\ufeff', '\u00a0'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 50_000; i++) {
      let text = '';
      for (let n = next() % 10; n > 0; n--) text += alphabet[next() % alphabet.length] ?? '';
      expect(hasContent(text), JSON.stringify(text)).toBe(byLines(text));
    }
  });

  it('sees content after a lone CR only when it starts a line of its own', () => {
    expect(hasContent('---\r# not a line of its own')).toBe(false);
    expect(hasContent('---\r\n# a comment is content')).toBe(true);
    expect(hasContent('---\n...\n  \n')).toBe(false);
  });
});
