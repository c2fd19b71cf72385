import { isPair, isSeq } from 'yaml';
import { itemsLines, mapLines, pairLines } from '../emit.js';
import { keyOf, mergedAlias } from '../keys.js';
import { FALLBACK } from './fallback.js';
import type { TextLayout } from './layout.js';
import { fallback, rangeOf, type EditLog, type Patch, type PatchResult, type PatchTarget } from './patch.js';

type PlainMap = Parameters<typeof mapLines>[0];

/**
 * An alias that was edited through: its private copy written out in full where the alias was — or,
 * for a map of strings, the alias kept under a merge key with the new keys beside it.
 */
export function dealiased(log: EditLog, target: PatchTarget, layout: TextLayout, order: () => number): PatchResult {
  const out: Patch[] = [];
  for (const { copy, alias, keyStart } of log.dealiased) {
    const r = rangeOf(alias);
    if (!r || keyStart === undefined) return fallback(FALLBACK.aliasWithoutKeyReplaced);
    const keyCol = layout.column(keyStart);
    const [first, ...rest] = copy.items;
    const merge = mergedAlias(first);
    if (merge) {
      const col = keyCol + target.style.indent;
      const own = rest.filter(isPair).flatMap((p) => pairLines(keyOf(p), target.plain(p.value), col, target.style));
      const lines = [`${' '.repeat(col)}<<: *${merge.source}`, ...own];
      out.push({ start: layout.backOverSpaces(r[0]), end: r[1], text: layout.nl + lines.join(layout.nl), order: order() });
      continue;
    }
    const plain = target.plain(copy);
    const lines = isSeq(copy)
      ? itemsLines(plain as unknown[], keyCol + target.style.seqIndent, target.style)
      : mapLines((plain ?? {}) as PlainMap, keyCol + target.style.indent, target.style);
    const text = lines.length === 0 ? (isSeq(copy) ? ' []' : ' {}') : layout.nl + lines.join(layout.nl);
    out.push({ start: layout.backOverSpaces(r[0]), end: r[1], text, order: order() });
  }
  return out;
}
