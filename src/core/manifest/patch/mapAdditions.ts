import type { Pair, YAMLMap } from 'yaml';
import { pairLines } from '../emit.js';
import { inlineScalar, renderKey } from '../scalars.js';
import { keyOf } from '../keys.js';
import { FALLBACK } from './fallback.js';
import type { TextLayout } from './layout.js';
import { fallback, startOf, type EditLog, type Patch, type PatchResult, type PatchTarget } from './patch.js';
import { isOneLineFlow } from './removals.js';

/*
 * Keys added to a mapping: block lines at the end of a block mapping (or before a named sibling),
 * block lines in place of an empty `{}`, or `, key: value` entries at the end of a one-line flow
 * mapping, so `labels: {app: web}` stays a flow mapping (a mapping of scalars added there is a
 * flow mapping too).
 */

/** Plain text is fine in a block but ends at `,[]{}` in a flow collection: quote it there. */
function inFlow(written: string, value: string): string {
  return !written.startsWith('"') && /[,[\]{}]/.test(written) ? JSON.stringify(value) : written;
}

type FlowScalar = string | number | boolean | null;

const isFlowScalar = (v: unknown): v is FlowScalar => v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** `key: value` for a flow mapping; undefined when the value is not a scalar one line holds. */
function flowEntry(key: string, v: FlowScalar): string | undefined {
  const inline = inlineScalar(v);
  return inline === undefined ? undefined : `${inFlow(renderKey(key), key)}: ${typeof v === 'string' ? inFlow(inline, v) : inline}`;
}

/**
 * The added pairs as flow entries: scalars, or a mapping of scalars as a nested flow mapping
 * (`annotations: {linkerd.io/inject: enabled}` added to `metadata: {name: web}`).
 */
function flowEntries(added: readonly Pair[], target: PatchTarget): string[] | undefined {
  const out: string[] = [];
  for (const p of added) {
    const key = keyOf(p);
    const v = target.plain(p.value);
    let entry: string | undefined;
    if (isFlowScalar(v)) entry = flowEntry(key, v);
    else if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0) {
      const inner = Object.entries(v).map(([k, x]) => (isFlowScalar(x) ? flowEntry(k, x) : undefined));
      if (inner.every((e) => e !== undefined)) entry = `${inFlow(renderKey(key), key)}: {${inner.join(', ')}}`;
    }
    if (entry === undefined) return undefined;
    out.push(entry);
  }
  return out;
}

function flowAppend(map: YAMLMap, rest: readonly Pair[], before: readonly Pair[], target: PatchTarget, layout: TextLayout, order: number): PatchResult {
  const last = before[before.length - 1];
  const at = last && layout.valueEnd(last);
  const entries = flowEntries(rest, target);
  if (at === undefined || entries === undefined || !isOneLineFlow(map, layout)) return fallback(FALLBACK.addedToFlowMapping);
  // When every original entry was removed, the first added one needs no separator.
  const allRemoved = before.every((p) => !map.items.includes(p));
  const text = (allRemoved ? '' : ', ') + entries.join(', ');
  return [{ start: at, end: at, text, order }];
}

export function mapAdditions(log: EditLog, target: PatchTarget, layout: TextLayout, order: () => number): PatchResult {
  const out: Patch[] = [];
  const lines = (list: readonly Pair[], col: number) => {
    const out: string[] = [];
    for (const p of list) for (const line of pairLines(keyOf(p), target.plain(p.value), col, target.style)) out.push(line);
    return out;
  };
  for (const [map, added] of log.appended) {
    const live = added.filter((p) => map.items.includes(p));
    if (live.length === 0) continue;
    const before = (log.origItems.get(map) ?? []) as Pair[];
    const placed = map.flow ? [] : live.filter((p) => log.placedBefore.has(p));
    for (const p of placed) {
      const k = startOf(log.placedBefore.get(p)?.key);
      if (k === undefined || !layout.firstOnLine(k)) return fallback(FALLBACK.addedBeforeKeySharingLine);
      const col = layout.column(k);
      const at = layout.prependPoint(k, col);
      out.push({ start: at, end: at, text: layout.insertion(at, lines([p], col)), order: order(), col });
    }
    const rest = live.filter((p) => !placed.includes(p));
    if (rest.length === 0) continue;
    if (map.flow) {
      if (before.length > 0) {
        const r = flowAppend(map, rest, before, target, layout, order());
        if (!Array.isArray(r)) return r;
        out.push(...r);
        continue;
      }
      const p = layout.flowToBlock(map, log, target.style, (col) => lines(rest, col), order());
      if (!p) return fallback(FALLBACK.addedToFlowMappingWithoutKey);
      out.push(p);
      continue;
    }
    const k = startOf(before[0]?.key);
    const last = before[before.length - 1];
    const end = last && layout.valueEnd(last);
    if (k === undefined || end === undefined || (!layout.firstOnLine(k) && !layout.isItemStart(k))) return fallback(FALLBACK.addedToMappingWithoutBlockLayout);
    const at = layout.endOfLine(end);
    out.push({ start: at, end: at, text: layout.insertion(at, lines(rest, layout.column(k))), order: order(), col: layout.column(k) });
  }
  return out;
}
