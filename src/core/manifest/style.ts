import { isMap, isSeq, type Document, type Node, type Pair } from 'yaml';
import type { CstNode } from './cst.js';
import { DEFAULT_STYLE, type BlockStyle } from './emit.js';

/*
 * The indentation a document already uses, so what we add lines up with what is there: measured
 * from the first nested mapping (indent), the first sequence under a key (seqIndent) and the first
 * mapping item of a sequence (itemPad). The `hint` (the pod spec) is searched first because it is
 * where the proxy goes and where `containers:` shows the user's sequence layout.
 */

export function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

export function columnOf(text: string, offset: number): number {
  return offset - lineStartOf(text, offset);
}

/** Offset of the `-` that introduces a block sequence item starting at `itemStart`, or -1. */
export function dashOffset(text: string, itemStart: number): number {
  let i = itemStart - 1;
  while (i >= 0 && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r')) i--;
  return i >= 0 && text[i] === '-' ? i : -1;
}

function startOf(node: unknown): number | undefined {
  const r = (node as Node | undefined)?.range;
  return r ? r[0] : undefined;
}

/** What the measuring walk needs of a tree: the Document's nodes, or the CST reader's (cst.ts). */
interface StyleTree<N> {
  /** A block mapping's pairs; undefined for anything else. */
  pairs(node: N): ReadonlyArray<{ keyStart: number | undefined; value: N }> | undefined;
  /** A block sequence's items; undefined for anything else. */
  items(node: N): readonly N[] | undefined;
  start(node: N): number | undefined;
}

const DOCUMENT_TREE: StyleTree<unknown> = {
  pairs: (n) => (isMap(n) && !n.flow ? n.items.map((p: Pair) => ({ keyStart: startOf(p.key), value: p.value })) : undefined),
  items: (n) => (isSeq(n) && !n.flow ? n.items : undefined),
  start: startOf,
};

const CST_TREE: StyleTree<CstNode> = {
  pairs: (n) => (n.type === 'map' && !n.flow ? n.pairs : undefined),
  items: (n) => (n.type === 'seq' && !n.flow ? n.items : undefined),
  start: (n) => n.range[0],
};

/** The walk over `roots` in order, each with a budget of 400 nodes, until all three are found. */
function measureStyle<N>(text: string, roots: readonly N[], tree: StyleTree<N>): BlockStyle {
  const found: Partial<BlockStyle> = {};
  let budget = 400;
  const visitPair = (keyStart: number, value: N): void => {
    const vStart = tree.start(value);
    // Only block collections that start on a later line than their key tell us anything.
    if (vStart === undefined || text.lastIndexOf('\n', vStart) < keyStart) return;
    const keyCol = columnOf(text, keyStart);
    const items = tree.items(value);
    if (tree.pairs(value) && found.indent === undefined) {
      const d = columnOf(text, vStart) - keyCol;
      if (d > 0) found.indent = d;
    } else if (items && items.length > 0 && found.seqIndent === undefined) {
      const first = items[0];
      const dash = dashOffset(text, (first === undefined ? undefined : tree.start(first)) ?? -1);
      if (dash >= 0) {
        const d = columnOf(text, dash) - keyCol;
        if (d >= 0) found.seqIndent = d;
      }
    }
  };
  const walk = (node: N): void => {
    if (budget-- <= 0) return;
    if (found.indent !== undefined && found.seqIndent !== undefined && found.itemPad !== undefined) return;
    const pairs = tree.pairs(node);
    const items = pairs ? undefined : tree.items(node);
    if (pairs) {
      for (const p of pairs) if (p.keyStart !== undefined) visitPair(p.keyStart, p.value);
      for (const p of pairs) walk(p.value);
    } else if (items) {
      for (const item of items) {
        const s = tree.start(item);
        if (found.itemPad === undefined && tree.pairs(item) && s !== undefined) {
          const dash = dashOffset(text, s);
          // `- name: x` on one line: the pad is the distance from the dash to the first key.
          if (dash >= 0 && text.lastIndexOf('\n', s) < dash) found.itemPad = s - dash;
        }
        walk(item);
      }
    }
  };
  for (const root of roots) {
    budget = 400;
    walk(root);
  }
  return {
    indent: found.indent ?? DEFAULT_STYLE.indent,
    seqIndent: found.seqIndent ?? DEFAULT_STYLE.seqIndent,
    itemPad: found.itemPad ?? DEFAULT_STYLE.itemPad,
  };
}

export function detectStyle(text: string, doc: Document, hint?: Node): BlockStyle {
  return measureStyle(text, hint ? [hint, doc.contents] : [doc.contents], DOCUMENT_TREE);
}

/** detectStyle over a document read from the CST (see cst.ts): the same walk, budget and answers. */
export function detectCstStyle(text: string, root: CstNode): BlockStyle {
  return measureStyle(text, [root], CST_TREE);
}
