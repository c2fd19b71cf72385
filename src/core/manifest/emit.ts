import { inlineScalar, literalBlock, renderKey } from './scalars.js';

/*
 * Writes values we add (plain JSON-like data) as block YAML lines at a given column, in the layout of
 * the document they go into, so an added container reads like the user's own. This is the fast path
 * of the editor: no YAML node is built or stringified for the ~200 lines of a proxy spec.
 */

/** The layout of a document, measured from its own lines (see detectStyle). */
export interface BlockStyle {
  /** Columns a nested mapping is indented by. */
  indent: number;
  /** Columns a sequence under a key is indented by (0 = `key:\n- item`, kubectl's layout). */
  seqIndent: number;
  /** Columns from a dash to its item's content (2 for `- name: x`). */
  itemPad: number;
}

export const DEFAULT_STYLE: BlockStyle = { indent: 2, seqIndent: 0, itemPad: 2 };

type Plain = string | number | boolean | bigint | null | undefined | PlainMap | Plain[];
interface PlainMap {
  [key: string]: Plain;
}

function isPlainMap(v: unknown): v is PlainMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const PADS: string[] = [];
const pad = (n: number): string => (PADS[n] ??= ' '.repeat(n));

/**
 * Lines (without newlines) for the entries of `map` with keys at `col`.
 * Undefined entries are skipped, like JSON does.
 */
export function mapLines(map: PlainMap, col: number, style: BlockStyle, out: string[] = []): string[] {
  for (const key of Object.keys(map)) {
    const v = map[key];
    if (v === undefined) continue;
    valueLines(`${pad(col)}${renderKey(key)}:`, v, col, style, out, false);
  }
  return out;
}

/** Lines for the items of `seq` with dashes at `col`. */
export function seqLines(seq: readonly Plain[], col: number, style: BlockStyle, out: string[] = []): string[] {
  for (const item of seq) itemLines(item ?? null, col, style, out);
  return out;
}

/**
 * What is rendered of a frozen item (a proxy spec shared by many workloads, see inject.ts) at a
 * column in a layout: it cannot change, so it is rendered once. Undefined for any other item.
 */
function frozenMemo<T>(cache: WeakMap<object, Map<string, T>>, item: Plain, col: number, style: BlockStyle, render: () => T): T | undefined {
  if (typeof item !== 'object' || item === null || !Object.isFrozen(item)) return undefined;
  let byLayout = cache.get(item);
  if (!byLayout) cache.set(item, (byLayout = new Map<string, T>()));
  const key = `${col} ${style.indent} ${style.seqIndent} ${style.itemPad}`;
  let rendered = byLayout.get(key);
  if (rendered === undefined) {
    rendered = render();
    byLayout.set(key, rendered);
  }
  return rendered;
}

/** Lines of frozen items, by item, column and layout. */
const FROZEN_LINES = new WeakMap<object, Map<string, readonly string[]>>();

function itemLines(item: Plain, col: number, style: BlockStyle, out: string[]): void {
  const lines = frozenMemo(FROZEN_LINES, item, col, style, () => freshItemLines(item, col, style, []));
  if (lines === undefined) freshItemLines(item, col, style, out);
  else for (const line of lines) out.push(line);
}

function freshItemLines(item: Plain, col: number, style: BlockStyle, out: string[]): string[] {
  const dash = `${pad(col)}-`;
  const contentCol = col + style.itemPad;
  if (isPlainMap(item) && Object.keys(item).some((k) => item[k] !== undefined)) {
    const start = out.length;
    mapLines(item, contentCol, style, out);
    // The first entry shares the dash's line.
    const first = out[start];
    if (first !== undefined) out[start] = dash + pad(style.itemPad - 1) + first.slice(contentCol);
    return out;
  }
  if (Array.isArray(item) && item.length > 0) {
    out.push(dash);
    seqLines(item, contentCol, style, out);
    return out;
  }
  valueLines(dash, item, contentCol - style.indent, style, out, true);
  return out;
}

/**
 * `head` is `<indent>key:` or `<indent>-`; the value goes on the same line when it is a scalar or an
 * empty collection, else below it. `col` is the column of the key (for items: such that nested
 * content lands at the item's content column).
 */
function valueLines(head: string, v: Plain, col: number, style: BlockStyle, out: string[], isItem: boolean): void {
  const sep = isItem ? pad(style.itemPad - 1) : ' ';
  if (v === undefined || v === null || typeof v !== 'object') {
    const inline = inlineScalar(v ?? null);
    if (inline !== undefined) {
      out.push(`${head}${sep}${inline}`);
      return;
    }
    const { header, lines } = literalBlock(v as string);
    out.push(`${head}${sep}${header}`);
    const bodyCol = col + style.indent;
    for (const line of lines) out.push(line === '' ? '' : pad(bodyCol) + line);
    return;
  }
  if (Array.isArray(v)) {
    if (v.length === 0) {
      out.push(`${head}${sep}[]`);
      return;
    }
    out.push(head);
    belowLines(v, col, style, out, () => seqLines(v, col + style.seqIndent, style, []));
    return;
  }
  if (!Object.keys(v).some((k) => v[k] !== undefined)) {
    out.push(`${head}${sep}{}`);
    return;
  }
  out.push(head);
  belowLines(v, col, style, out, () => mapLines(v, col + style.indent, style, []));
}

/** Lines of frozen collections under their key, by collection, column and layout. */
const FROZEN_BELOW = new WeakMap<object, Map<string, readonly string[]>>();

/** The lines of a non-empty collection below its key's line (rendered once for a frozen one). */
function belowLines(v: Plain, col: number, style: BlockStyle, out: string[], render: () => string[]): void {
  const lines = frozenMemo(FROZEN_BELOW, v, col, style, render) ?? render();
  for (const line of lines) out.push(line);
}

/** One `key: value` entry of a block mapping, as lines with the key at `col`. */
export function pairLines(key: string, value: unknown, col: number, style: BlockStyle): string[] {
  const out: string[] = [];
  valueLines(`${pad(col)}${renderKey(key)}:`, value as Plain, col, style, out, false);
  return out;
}

/** Sequence items as lines with their dashes at `col`. */
export function itemsLines(items: readonly unknown[], col: number, style: BlockStyle): string[] {
  return seqLines(items as Plain[], col, style);
}

/** The text of frozen items (their lines joined with `\n`), by item, column and layout. */
const FROZEN_TEXT = new WeakMap<object, Map<string, string>>();

/** itemsLines joined with `\n`; the text of a frozen item is joined once. */
export function itemsText(items: readonly unknown[], col: number, style: BlockStyle): string {
  return (items as Plain[])
    .map((item) => {
      const text = () => seqLines([item], col, style).join('\n');
      return frozenMemo(FROZEN_TEXT, item, col, style, text) ?? text();
    })
    .join('\n');
}

/** pairLines joined with `\n`; a non-empty sequence value goes through itemsText. */
export function pairText(key: string, value: unknown, col: number, style: BlockStyle): string {
  if (!Array.isArray(value) || value.length === 0) return pairLines(key, value, col, style).join('\n');
  return `${pad(col)}${renderKey(key)}:\n${itemsText(value, col + style.seqIndent, style)}`;
}

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Every mapping's keys in byte order, as Go's YAML/JSON marshalling of maps writes them. Subtrees
 * already in order (most of a proxy spec) are returned as they are, not copied.
 */
export function sortKeysDeep<T>(v: T): T {
  if (Array.isArray(v)) {
    const items: readonly unknown[] = v;
    let copy: unknown[] | undefined;
    for (const [i, item] of items.entries()) {
      const x = sortKeysDeep(item);
      if (x !== item) (copy ??= [...items])[i] = x;
    }
    return (copy ?? v) as T;
  }
  if (!isPlainMap(v)) return v;
  const keys = Object.keys(v);
  let same = true;
  for (const [i, k] of keys.entries()) {
    const previous = keys[i - 1];
    if ((previous !== undefined && previous > k) || v[k] === undefined) same = false;
  }
  const children = keys.map((k) => sortKeysDeep(v[k]));
  if (same && keys.every((k, i) => children[i] === v[k])) return v;
  const order = keys.map((k, i) => [k, children[i]] as const).sort((a, b) => byteOrder(a[0], b[0]));
  const out: PlainMap = {};
  for (const [k, c] of order) if (c !== undefined) out[k] = c;
  return out as T;
}
