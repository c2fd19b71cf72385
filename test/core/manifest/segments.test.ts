import { describe, expect, it } from 'vitest';
import { segments, segmentsOf, type Segment } from '../../../src/core/manifest/segments.js';

async function all(gen: AsyncIterable<Segment>): Promise<Segment[]> {
  const out: Segment[] = [];
  for await (const s of gen) out.push(s);
  return out;
}

async function* chunked(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

describe('segments: a YAML stream cut into documents without parsing it', () => {
  const text =
    '\ufeff# lead\nkind: A\n---\nkind: B\ns: |\n  --- not a marker (indented)\n---   # marker with a comment\nkind: C\n...\n%YAML 1.1\n---\nkind: D\n---';

  it('cuts at every "---" line, keeps directives with their document and every byte in order', async () => {
    const got = await all(segmentsOf(text));
    expect(got.map((s) => s.text).join('')).toBe(text);
    expect(got.map((s) => s.text)).toEqual([
      '\ufeff# lead\nkind: A\n',
      '---\nkind: B\ns: |\n  --- not a marker (indented)\n',
      '---   # marker with a comment\nkind: C\n...\n',
      '%YAML 1.1\n---\nkind: D\n',
      '---',
    ]);
    expect(got.map((s) => s.lineOffset)).toEqual([0, 2, 6, 9, 12]);
  });

  it('cuts the same way whatever the chunk boundaries', async () => {
    const whole = await all(segmentsOf(text));
    for (const size of [1, 2, 3, 5, 7, 64]) expect(await all(segments(chunked(text, size)))).toEqual(whole);
  });

  it('does not cut at "---" followed by other text, and keeps CRLF', async () => {
    const crlf = 'a: 1\r\n---x: not a marker\r\n---\r\nb: 2\r\n';
    expect((await all(segmentsOf(crlf))).map((s) => s.text)).toEqual(['a: 1\r\n---x: not a marker\r\n', '---\r\nb: 2\r\n']);
  });
});
