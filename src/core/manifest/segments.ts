/*
 * A YAML stream cut into documents without parsing it, so each can be parsed, edited and written
 * on its own and the memory in use is that of the largest document, not of the stream.
 *
 * A line starting with `---` (then a space, a tab or the line's end) always starts a document: YAML
 * forbids such a line inside any content, quoted or block scalars included. Directive lines (`%…`)
 * directly above it belong to the document they introduce. Every byte is in exactly one segment,
 * in order, so writing the segments back to back gives the input again.
 */

export interface Segment {
  readonly text: string;
  /** Lines of the input before this segment. */
  readonly lineOffset: number;
}

function countLines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/** Moves a cut back over directive lines directly above it. */
function withDirectives(buf: string, cut: number): number {
  let at = cut;
  while (at > 0) {
    const prev = buf.lastIndexOf('\n', at - 2) + 1;
    if (buf[prev] !== '%') break;
    at = prev;
  }
  return at;
}

/**
 * The next cut in `buf` at or after `from`: the offset of a `---` line's first byte. `final` says no
 * more text follows (a `---` at the very end is then a marker). -1 when there is none yet.
 */
function nextCut(buf: string, from: number, final: boolean): number {
  for (let i = buf.indexOf('\n---', from); i >= 0; i = buf.indexOf('\n---', i + 1)) {
    const after = buf[i + 4];
    if (after === undefined) return final ? i + 1 : -1;
    if (after === ' ' || after === '\t' || after === '\n' || after === '\r') return i + 1;
  }
  return -1;
}

/** A `---` line's start, whatever follows it. */
const MAY_CUT = /\n---/;

export async function* segments(chunks: AsyncIterable<string>): AsyncGenerator<Segment> {
  let buf = '';
  let scan = 0;
  let lineOffset = 0;
  const cuts = function* (final: boolean): Generator<Segment> {
    for (;;) {
      const found = nextCut(buf, scan, final);
      if (found < 0) {
        // Nothing before the last 4 characters can start a cut found later.
        scan = Math.max(0, buf.length - 4);
        return;
      }
      const cut = withDirectives(buf, found);
      if (cut === 0) {
        scan = found + 1;
        continue;
      }
      const text = buf.slice(0, cut);
      buf = buf.slice(cut);
      scan = found - cut + 1;
      yield { text, lineOffset };
      lineOffset += countLines(text);
    }
  };
  // Chunks wait in `pending` until one may hold a cut: searching a buffer grown by `+=` flattens
  // all of it each time, quadratic in a large document.
  let pending: string[] = [];
  let tail = '';
  for await (const chunk of chunks) {
    pending.push(chunk);
    const probe = tail + chunk;
    tail = probe.slice(-4);
    if (!MAY_CUT.test(probe)) continue;
    buf += pending.join('');
    pending = [];
    yield* cuts(false);
  }
  buf += pending.join('');
  yield* cuts(true);
  if (buf !== '') yield { text: buf, lineOffset };
}

/** Segments of a text held whole. */
export function segmentsOf(text: string): AsyncGenerator<Segment> {
  return segments(
    // eslint-disable-next-line @typescript-eslint/require-await -- an async iterable of one chunk
    (async function* () {
      yield text;
    })(),
  );
}
