import { FALLBACK } from './fallback.js';
import { fallback, type Patch, type PatchResult } from './patch.js';

/**
 * Patches in text order. Edits inside a removed (or covering) range are moot; at one offset, removals come
 * after insertions, deeper insertions first, then the order they were made in. What is left must
 * not overlap.
 */
export function arrange(patches: readonly Patch[]): PatchResult {
  const deletions = patches.filter((p) => p.end > p.start && (p.text === '' || p.covers === true));
  const inside = (p: Patch, d: Patch) => (p.start === p.end ? d.start < p.start && p.start < d.end : d.start <= p.start && p.end <= d.end);
  const kept = patches.filter((p) => !deletions.some((d) => d !== p && inside(p, d)));
  kept.sort((a, b) => a.start - b.start || Number(a.end > a.start) - Number(b.end > b.start) || (b.col ?? 0) - (a.col ?? 0) || a.order - b.order);
  for (let i = 1; i < kept.length; i++) {
    const prev = kept[i - 1];
    const cur = kept[i];
    if (prev && cur && cur.start < prev.end) return fallback(FALLBACK.editsOverlap);
  }
  return kept;
}
