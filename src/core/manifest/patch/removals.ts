import type { Pair, YAMLMap } from 'yaml';
import { FALLBACK } from './fallback.js';
import type { TextLayout } from './layout.js';
import { fallback, rangeOf, startOf, type EditLog, type Patch, type PatchResult } from './patch.js';

/*
 * Removed keys and sequence items: whole lines cut out of a block collection; entries (with their
 * comma) cut out of a flow mapping written on one line.
 */

/** A flow mapping on one line whose entries are all where the text says. */
export function isOneLineFlow(map: YAMLMap, layout: TextLayout): boolean {
  const r = rangeOf(map);
  return map.flow === true && r !== undefined && !layout.text.slice(r[0], r[1]).includes('\n');
}

function flowRemovals(map: YAMLMap, removed: ReadonlySet<Pair>, log: EditLog, layout: TextLayout, order: () => number): PatchResult {
  const before = (log.origItems.get(map) ?? []) as Pair[];
  if (!isOneLineFlow(map, layout)) return fallback(FALLBACK.removedFromFlowMapping);
  const starts = before.map((p) => startOf(p.key));
  const ends = before.map((p) => layout.valueEnd(p));
  const firstKept = before.findIndex((p) => !removed.has(p));
  const out: Patch[] = [];
  const cut = (start: number | undefined, end: number | undefined): boolean => {
    if (start === undefined || end === undefined) return false;
    out.push({ start, end, text: '', order: order() });
    return true;
  };
  if (firstKept < 0) {
    if (!cut(starts[0], ends[before.length - 1])) return fallback(FALLBACK.removedFromFlowMapping);
    return out;
  }
  // Entries before the first kept one go with the separator after them; later ones with the one before.
  if (firstKept > 0 && !cut(starts[0], starts[firstKept])) return fallback(FALLBACK.removedFromFlowMapping);
  for (let i = firstKept + 1; i < before.length; i++) {
    const p = before[i];
    if (p && removed.has(p) && !cut(ends[i - 1], ends[i])) return fallback(FALLBACK.removedFromFlowMapping);
  }
  return out;
}

export function removedKeys(log: EditLog, layout: TextLayout, order: () => number): PatchResult {
  const out: Patch[] = [];
  for (const [map, tombs] of log.tombstones) {
    if (map.flow) {
      const r = flowRemovals(map, new Set([...tombs.values()].map((t) => t.pair)), log, layout, order);
      if (!Array.isArray(r)) return r;
      out.push(...r);
      continue;
    }
    for (const { pair } of tombs.values()) {
      const k = startOf(pair.key);
      const end = layout.valueEnd(pair);
      if (k === undefined || end === undefined || !layout.firstOnLine(k)) return fallback(FALLBACK.removedKeySharesLine);
      out.push({ start: layout.lineStart(k), end: layout.endOfLine(end), text: '', order: order() });
    }
  }
  return out;
}

export function removedItems(log: EditLog, layout: TextLayout, order: () => number): PatchResult {
  const out: Patch[] = [];
  for (const item of log.deletedItems) {
    const r = rangeOf(item);
    const dash = r ? layout.dash(r[0]) : -1;
    if (!r || dash < 0 || !layout.firstOnLine(dash)) return fallback(FALLBACK.removedItemSharesLine);
    out.push({ start: layout.lineStart(dash), end: layout.endOfLine(r[1]), text: '', order: order() });
  }
  return out;
}
