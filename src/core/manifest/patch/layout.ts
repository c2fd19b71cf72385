import { isSeq, type Pair } from 'yaml';
import type { BlockStyle } from '../emit.js';
import { columnOf, dashOffset, lineStartOf } from '../style.js';
import { rangeOf, type Collection, type EditLog, type Patch } from './patch.js';

/** Where lines start and end in a document's text, and how inserted lines are joined to it. */
export class TextLayout {
  constructor(
    readonly text: string,
    /** The document's line break (`\n` or `\r\n`). */
    readonly nl: string,
    /** Offset of the document's first byte. */
    private readonly regionStart: number,
  ) {}

  lineStart(offset: number): number {
    return lineStartOf(this.text, offset);
  }

  column(offset: number): number {
    return columnOf(this.text, offset);
  }

  endOfLine(offset: number): number {
    if (offset > 0 && this.text[offset - 1] === '\n') return offset;
    const i = this.text.indexOf('\n', offset);
    return i < 0 ? this.text.length : i + 1;
  }

  firstOnLine(offset: number): boolean {
    return /^[ \t]*$/.test(this.text.slice(this.lineStart(offset), offset));
  }

  /** Lines to insert at `at`, joined to what is before them. */
  insertion(at: number, lines: readonly string[]): string {
    if (at === 0 || this.text[at - 1] === '\n') return lines.length === 0 ? '' : lines.join(this.nl) + this.nl;
    return this.nl + lines.join(this.nl);
  }

  /** The end of a pair's value (or of its key, when the value is empty). */
  valueEnd(pair: Pair): number | undefined {
    return rangeOf(pair.value)?.[1] ?? rangeOf(pair.key)?.[1];
  }

  /** Offset of a block item's dash, or -1. */
  dash(itemStart: number): number {
    return dashOffset(this.text, itemStart);
  }

  /** A key that starts a sequence item's mapping (`- name: x`) may share its line with the dash. */
  isItemStart(offset: number): boolean {
    const dash = this.dash(offset);
    return dash >= 0 && this.firstOnLine(dash) && this.text.lastIndexOf('\n', offset) < dash;
  }

  /** Before a line (a sequence's first item, a key), and before comment lines directly above it (they belong to it). */
  prependPoint(offset: number, col: number): number {
    let at = this.lineStart(offset);
    while (at > this.regionStart) {
      const prevStart = this.lineStart(at - 1);
      const line = this.text.slice(prevStart, at);
      const indent = line.length - line.trimStart().length;
      if (!line.trimStart().startsWith('#') || indent < col) break;
      at = prevStart;
    }
    return at;
  }

  /** Back over the spaces before `offset` (to the end of `key:`). */
  backOverSpaces(offset: number): number {
    let start = offset;
    while (start > 0 && this.text[start - 1] === ' ') start--;
    return start;
  }

  /** Replaces an empty flow collection (`{}`/`[]`) with block lines under its key. */
  flowToBlock(c: Collection, log: EditLog, style: BlockStyle, lines: (col: number) => string[], order: number): Patch | undefined {
    const r = rangeOf(c);
    const parent = log.parents.get(c);
    const k = parent && rangeOf(parent.pair.key);
    if (!r || !k) return undefined;
    const col = this.column(k[0]) + (isSeq(c) ? style.seqIndent : style.indent);
    return { start: this.backOverSpaces(r[0]), end: r[1], text: this.nl + lines(col).join(this.nl), order };
  }
}
