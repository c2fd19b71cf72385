import { isMap } from 'yaml';
import { itemsLines } from '../emit.js';
import { FALLBACK } from './fallback.js';
import type { TextLayout } from './layout.js';
import { fallback, rangeOf, type EditLog, type Patch, type PatchResult, type PatchTarget } from './patch.js';

/**
 * Items added at the start or the end of a sequence: block lines in the sequence's own layout
 * (above the comments of its first item when prepended), or in place of an empty `[]`.
 */
export function seqAdditions(log: EditLog, target: PatchTarget, layout: TextLayout, order: () => number): PatchResult {
  const out: Patch[] = [];
  for (const [seq, ins] of log.seqInserts) {
    const all = [...ins.start, ...ins.end];
    if (all.length === 0) continue;
    const before = log.origItems.get(seq) ?? [];
    if (seq.flow) {
      if (before.length > 0) return fallback(FALLBACK.addedToFlowSequence);
      const p = layout.flowToBlock(seq, log, target.style, (col) => itemsLines(all, col, target.style), order());
      if (!p) return fallback(FALLBACK.addedToFlowSequenceWithoutKey);
      out.push(p);
      continue;
    }
    const first = rangeOf(before[0]);
    const last = rangeOf(before[before.length - 1]);
    const dash = first ? layout.dash(first[0]) : -1;
    if (!first || !last || dash < 0 || !layout.firstOnLine(dash)) return fallback(FALLBACK.addedToSequenceWithoutBlockLayout);
    const sameLine = layout.text.lastIndexOf('\n', first[0]) < dash;
    const style = { ...target.style, itemPad: isMap(before[0]) && sameLine ? first[0] - dash : target.style.itemPad };
    const col = layout.column(dash);
    if (ins.start.length > 0) {
      const at = layout.prependPoint(dash, col);
      out.push({ start: at, end: at, text: layout.insertion(at, itemsLines(ins.start, col, style)), order: order(), col });
    }
    if (ins.end.length > 0) {
      const at = layout.endOfLine(last[1]);
      // Items are deeper than their sequence's key even when the dashes are not indented.
      out.push({ start: at, end: at, text: layout.insertion(at, itemsLines(ins.end, col, style)), order: order(), col: col + 0.5 });
    }
  }
  return out;
}
