import { isMap, type Pair } from 'yaml';
import { mergedAlias } from '../keys.js';
import type { TextLayout } from './layout.js';
import { rangeOf, type EditLog, type Patch, type PatchResult } from './patch.js';

/**
 * A mapping whose edits left nothing but its merge key (`labels:\n  <<: *labels`, once uninject
 * removed the keys inject put beside it) is the alias again: written back as `labels: *labels`.
 */
export function realiased(log: EditLog, layout: TextLayout, order: () => number): PatchResult {
  const out: Patch[] = [];
  for (const [c, before] of log.origItems) {
    const only = c.items[0];
    const alias = mergedAlias(only);
    if (!isMap(c) || c.items.length !== 1 || before.length < 2 || !alias || !before.includes(only)) continue;
    const key = rangeOf(log.parents.get(c)?.pair.key);
    const ends = (before as Pair[]).map((p) => layout.valueEnd(p) ?? 0);
    const colon = key ? layout.text.indexOf(':', key[1]) : -1;
    if (colon < 0) continue;
    const eol = layout.endOfLine(Math.max(...ends));
    const lineBreak = /\r?\n$/.exec(layout.text.slice(colon, eol))?.[0] ?? '';
    out.push({ start: colon + 1, end: eol, text: ` *${alias.source}${lineBreak}`, order: order(), covers: true });
  }
  return out;
}
