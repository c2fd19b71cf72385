import { scalarStyle } from '../scalars.js';
import { FALLBACK } from './fallback.js';
import type { TextLayout } from './layout.js';
import { fallback, rangeOf, type EditLog, type Patch, type PatchResult } from './patch.js';

/** A value written on its key's line: plain or double-quoted; undefined for a literal block. */
export function renderInline(v: string): string | undefined {
  const style = scalarStyle(v);
  if (style === 'PLAIN') return v;
  if (style === 'QUOTE_DOUBLE') return JSON.stringify(v);
  return undefined;
}

/** Replaced scalar values, swapped in place (one line each). */
export function replacedScalars(log: EditLog, layout: TextLayout, order: () => number): PatchResult {
  const out: Patch[] = [];
  for (const pair of log.replaced) {
    const r = rangeOf(pair.value);
    const inline = pair.value ? renderInline(String(pair.value.value)) : undefined;
    if (!r || inline === undefined || layout.text.slice(r[0], r[1]).includes('\n')) return fallback(FALLBACK.replacedValueSpansLines);
    out.push({ start: r[0], end: r[1], text: inline, order: order() });
  }
  return out;
}
