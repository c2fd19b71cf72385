/**
 * PEM framing with the semantics of Go's `encoding/pem.Decode`, because linkerd's
 * errors depend on exactly where decoding stops: a bundle with a stray trailing
 * blank line fails with `not a PEM certificate`, a key file whose first block is
 * `EC PARAMETERS` fails with `unsupported block type`. This is text framing only;
 * the DER inside is parsed by @peculiar/x509 and node:crypto.
 *
 * Go re-scans the text after every malformed BEGIN line it skips, which is quadratic in
 * hostile input (thousands of BEGIN lines, or junk inside one block). This reader indexes
 * the lines once and answers each of Go's questions (where the headers end, where the next
 * END line is, whether the base64 between them is valid) from that index, so a whole text
 * costs time and memory linear in its length, whatever it holds.
 */

export interface PemBlock {
  type: string;
  headers: Record<string, string>;
  bytes: Buffer;
}

/** A block found by the reader, with the 0-based lines of its BEGIN and END lines. */
export interface PemBlockAt {
  block: PemBlock;
  beginLine: number;
  endLine: number;
}

const BEGIN = '-----BEGIN ';
const END = '-----END ';
const DASHES = '-----';

const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const NL = 0x0a;
const EQUALS = 0x3d;

function isBase64Char(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2f;
}

/** The lines of a text and, per line, what Go's decoder asks about it; built in one pass. */
class LineIndex {
  /** Lines that hold text; a final newline does not start another one. */
  readonly count: number;
  readonly start: Int32Array;
  /** End of the line before its `\n` (or the end of the text). */
  readonly end: Int32Array;
  /** End after Go's getLine trimming: one `\r` before the newline, then trailing blanks. */
  readonly trimmedEnd: Int32Array;
  /** First line at or after i that starts with `-----BEGIN ` (count when none). */
  readonly nextBegin: Int32Array;
  /** First line at or after i that starts with `-----END `. */
  readonly nextEnd: Int32Array;
  /** First line at or after i without a colon: where a header run starting at i stops. */
  readonly nextNonColon: Int32Array;
  /** Prefix sums over lines: base64-significant characters, invalid ones, and `=`. */
  readonly significant: Int32Array;
  readonly invalid: Int32Array;
  readonly equals: Int32Array;
  /** First line at or after i holding a `=`, and the significant characters before it in that line. */
  readonly nextEquals: Int32Array;
  readonly beforeEquals: Int32Array;

  constructor(readonly text: string) {
    const starts: number[] = [];
    for (let at = 0; at < text.length;) {
      starts.push(at);
      const nl = text.indexOf('\n', at);
      at = nl < 0 ? text.length : nl + 1;
    }
    const n = starts.length;
    this.count = n;
    this.start = Int32Array.from(starts);
    this.end = new Int32Array(n);
    this.trimmedEnd = new Int32Array(n);
    this.nextBegin = new Int32Array(n + 2).fill(n);
    this.nextEnd = new Int32Array(n + 2).fill(n);
    this.nextNonColon = new Int32Array(n + 2).fill(n);
    this.significant = new Int32Array(n + 1);
    this.invalid = new Int32Array(n + 1);
    this.equals = new Int32Array(n + 1);
    this.nextEquals = new Int32Array(n + 2).fill(n);
    this.beforeEquals = new Int32Array(n + 1);
    const colon = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const s = this.start[i] ?? 0;
      let e = s;
      let sig = 0;
      let bad = 0;
      let eq = 0;
      let before = -1;
      let hasColon = 0;
      for (; e < text.length; e++) {
        const c = text.charCodeAt(e);
        if (c === NL) break;
        if (c === SPACE || c === TAB || c === CR) continue;
        if (c === 0x3a) hasColon = 1;
        if (c === EQUALS) {
          if (before < 0) before = sig;
          eq++;
        } else if (!isBase64Char(c)) bad++;
        sig++;
      }
      this.end[i] = e;
      let t = e > s && text.charCodeAt(e - 1) === CR && e < text.length ? e - 1 : e;
      while (t > s && (text.charCodeAt(t - 1) === SPACE || text.charCodeAt(t - 1) === TAB)) t--;
      this.trimmedEnd[i] = t;
      colon[i] = hasColon;
      this.significant[i + 1] = (this.significant[i] ?? 0) + sig;
      this.invalid[i + 1] = (this.invalid[i] ?? 0) + bad;
      this.equals[i + 1] = (this.equals[i] ?? 0) + eq;
      this.beforeEquals[i] = before;
    }
    for (let i = n - 1; i >= 0; i--) {
      const s = this.start[i] ?? 0;
      this.nextBegin[i] = text.startsWith(BEGIN, s) ? i : (this.nextBegin[i + 1] ?? n);
      this.nextEnd[i] = text.startsWith(END, s) ? i : (this.nextEnd[i + 1] ?? n);
      this.nextNonColon[i] = colon[i] ? (this.nextNonColon[i + 1] ?? n) : i;
      this.nextEquals[i] = (this.beforeEquals[i] ?? -1) >= 0 ? i : (this.nextEquals[i + 1] ?? n);
    }
  }

  /** Whether lines [from, to) hold base64 that Go's StdEncoding decodes (blanks ignored). */
  validBase64(from: number, to: number): boolean {
    const at = (a: Int32Array, i: number) => a[i] ?? 0;
    const total = at(this.significant, to) - at(this.significant, from);
    if (total % 4 !== 0 || at(this.invalid, to) !== at(this.invalid, from)) return false;
    const eq = at(this.equals, to) - at(this.equals, from);
    if (eq === 0) return true;
    if (eq > 2) return false;
    // Padding only at the very end: everything after the first `=` is `=`.
    const line = at(this.nextEquals, from);
    return at(this.significant, line) - at(this.significant, from) + at(this.beforeEquals, line) === total - eq;
  }

  headers(from: number, to: number): Record<string, string> {
    const headers: Record<string, string> = {};
    for (let i = from; i < to; i++) {
      const line = this.text.slice(this.start[i], this.trimmedEnd[i]);
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    }
    return headers;
  }
}

/**
 * Reads the PEM blocks of one text in order, as repeated calls of Go's `pem.Decode` on the
 * rest would. Malformed candidates are skipped like Go skips them.
 */
export class PemReader {
  private readonly lines: LineIndex;
  private line = 0;

  constructor(readonly text: string) {
    this.lines = new LineIndex(text);
  }

  /** The 0-based line the next block is looked for from; `lineCount` once the text is used up. */
  get position(): number {
    return this.line;
  }

  get lineCount(): number {
    return this.lines.count;
  }

  /** The text from the start of `line` on (what Go's `rest` is after a block). */
  textFrom(line: number): string {
    return line >= this.lines.count ? '' : this.text.slice(this.lines.start[line]);
  }

  /** The text of one line, without its newline. */
  lineText(line: number): string {
    return this.text.slice(this.lines.start[line], this.lines.end[line]);
  }

  /** The next well-formed block, or undefined when Go's decoder would find none in the rest. */
  next(): PemBlockAt | undefined {
    const L = this.lines;
    const text = this.text;
    const n = L.count;
    let candidate = L.nextBegin[this.line] ?? n;
    while (candidate < n) {
      const typeStart = (L.start[candidate] ?? 0) + BEGIN.length;
      const typeEnd = Math.max(typeStart, L.trimmedEnd[candidate] ?? 0);
      if (typeEnd - typeStart < DASHES.length || !text.startsWith(DASHES, typeEnd - DASHES.length)) {
        candidate = L.nextBegin[candidate + 1] ?? n;
        continue;
      }
      const type = text.slice(typeStart, typeEnd - DASHES.length);
      const headersEnd = L.nextNonColon[candidate + 1] ?? n;
      // Headers that run to the end of the text: Go gives up on the whole rest.
      if (headersEnd >= n) return undefined;
      const noHeaders = headersEnd === candidate + 1;
      // With headers, Go looks for "\n-----END " after the line that ended them.
      const endLine = L.nextEnd[noHeaders ? headersEnd : headersEnd + 1] ?? n;
      if (endLine < n && this.trailerMatches(endLine, type) && L.validBase64(headersEnd, endLine)) {
        const from = L.start[headersEnd] ?? 0;
        const to = endLine > headersEnd ? (L.end[endLine - 1] ?? from) : from;
        const base64 = text.slice(from, to).replace(/[ \t\r\n]/g, '');
        this.line = endLine + 1;
        return {
          block: { type, headers: L.headers(candidate + 1, headersEnd), bytes: Buffer.from(base64, 'base64') },
          beginLine: candidate,
          endLine,
        };
      }
      candidate = L.nextBegin[headersEnd] ?? n;
    }
    return undefined;
  }

  /** `-----END <type>-----` followed by nothing but blanks on its line. */
  private trailerMatches(line: number, type: string): boolean {
    const at = (this.lines.start[line] ?? 0) + END.length;
    const trailer = `${type}${DASHES}`;
    return this.text.startsWith(trailer, at) && (this.lines.trimmedEnd[line] ?? 0) <= at + trailer.length;
  }
}

/**
 * Finds the first well-formed PEM block, as Go's `pem.Decode`. Returns it with the text after
 * its END line (that line's newline consumed), or `undefined` when no block is left.
 */
export function decodePemBlock(text: string): { block: PemBlock; rest: string } | undefined {
  const reader = new PemReader(text);
  const found = reader.next();
  return found === undefined ? undefined : { block: found.block, rest: reader.textFrom(reader.position) };
}

/** PEM-encodes DER the way Go's pem.EncodeToMemory does: 64-column base64, trailing newline. */
export function encodePem(type: string, der: ArrayBuffer | Uint8Array): string {
  const base64 = Buffer.from(der instanceof ArrayBuffer ? new Uint8Array(der) : der).toString('base64');
  const lines = base64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${type}-----\n${lines.map((l) => `${l}\n`).join('')}-----END ${type}-----\n`;
}
