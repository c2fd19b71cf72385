import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ManifestOutput } from '../../../src/core/manifest/output.js';

function collect(): { sink: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { sink, text: () => Buffer.concat(chunks).toString('utf8') };
}

describe('ManifestOutput', () => {
  it('joins inputs into one stream kubectl reads: a newline and a "---" where they are missing', async () => {
    const out = new ManifestOutput();
    out.beginInput('yaml');
    out.write('a: 1');
    out.beginInput('yaml');
    out.write('b: 2\n');
    out.beginInput('yaml');
    out.write('---\nc: 3\n');
    out.beginInput('json');
    out.write('{"d":4}\n');
    expect(await out.text()).toBe('a: 1\n---\nb: 2\n---\nc: 3\n{"d":4}\n');
    out.dispose();
  });

  it('keeps what exceeds its memory limit in a temporary file, and writes it all back in order', async () => {
    const out = new ManifestOutput(10);
    out.beginInput('yaml');
    const docs = Array.from({ length: 50 }, (_, i) => `---\nn: ${i} é\n`);
    for (const d of docs) out.write(d);
    const { sink, text } = collect();
    await out.writeTo(sink);
    expect(text()).toBe(docs.join(''));
    expect(await out.text()).toBe(docs.join(''));
    out.dispose();
  });
});
