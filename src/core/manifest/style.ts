import { isMap, isScalar, isSeq, type Document, type Node, type Pair } from 'yaml';
import type { CstNode, CstPair } from './cst.js';
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

export function detectStyle(text: string, doc: Document, hint?: Node): BlockStyle {
  const found: Partial<BlockStyle> = {};
  let budget = 400;
  const visitPair = (pair: Pair, keyCol: number): void => {
    const v = pair.value;
    const vStart = startOf(v);
    const kStart = startOf(pair.key);
    if (vStart === undefined || kStart === undefined) return;
    // Only block collections that start on a later line than their key tell us anything.
    if (text.lastIndexOf('\n', vStart) < kStart) return;
    if (isMap(v) && !v.flow && found.indent === undefined) {
      const d = columnOf(text, vStart) - keyCol;
      if (d > 0) found.indent = d;
    } else if (isSeq(v) && !v.flow && v.items.length > 0 && found.seqIndent === undefined) {
      const dash = dashOffset(text, startOf(v.items[0]) ?? -1);
      if (dash >= 0) {
        const d = columnOf(text, dash) - keyCol;
        if (d >= 0) found.seqIndent = d;
      }
    }
  };
  const walk = (node: unknown): void => {
    if (budget-- <= 0 || isScalar(node)) return;
    if (found.indent !== undefined && found.seqIndent !== undefined && found.itemPad !== undefined) return;
    if (isMap(node) && !node.flow) {
      for (const pair of node.items) {
        const k = startOf(pair.key);
        if (k !== undefined) visitPair(pair, columnOf(text, k));
      }
      for (const pair of node.items) walk(pair.value);
    } else if (isSeq(node) && !node.flow) {
      for (const item of node.items) {
        const s = startOf(item);
        if (found.itemPad === undefined && isMap(item) && !item.flow && s !== undefined) {
          const dash = dashOffset(text, s);
          // `- name: x` on one line: the pad is the distance from the dash to the first key.
          if (dash >= 0 && text.lastIndexOf('\n', s) < dash) found.itemPad = s - dash;
        }
        walk(item);
      }
    }
  };
  if (hint) walk(hint);
  budget = 400;
  walk(doc.contents);
  return {
    indent: found.indent ?? DEFAULT_STYLE.indent,
    seqIndent: found.seqIndent ?? DEFAULT_STYLE.seqIndent,
    itemPad: found.itemPad ?? DEFAULT_STYLE.itemPad,
  };
}

/** detectStyle over a document read from the CST (see cst.ts): the same walk, budget and answers. */
export function detectCstStyle(text: string, root: CstNode): BlockStyle {
  const found: Partial<BlockStyle> = {};
  let budget = 400;
  const visitPair = (pair: CstPair, keyCol: number): void => {
    const v = pair.value;
    const vStart = v.range[0];
    if (text.lastIndexOf('\n', vStart) < pair.keyStart) return;
    if (v.type === 'map' && !v.flow && found.indent === undefined) {
      const d = columnOf(text, vStart) - keyCol;
      if (d > 0) found.indent = d;
    } else if (v.type === 'seq' && !v.flow && v.items.length > 0 && found.seqIndent === undefined) {
      const dash = dashOffset(text, v.items[0]?.range[0] ?? -1);
      if (dash >= 0) {
        const d = columnOf(text, dash) - keyCol;
        if (d >= 0) found.seqIndent = d;
      }
    }
  };
  const walk = (node: CstNode): void => {
    if (budget-- <= 0 || node.type === 'scalar') return;
    if (found.indent !== undefined && found.seqIndent !== undefined && found.itemPad !== undefined) return;
    if (node.type === 'map' && !node.flow) {
      for (const pair of node.pairs) visitPair(pair, columnOf(text, pair.keyStart));
      for (const pair of node.pairs) walk(pair.value);
    } else if (node.type === 'seq' && !node.flow) {
      for (const item of node.items) {
        const s = item.range[0];
        if (found.itemPad === undefined && item.type === 'map' && !item.flow) {
          const dash = dashOffset(text, s);
          if (dash >= 0 && text.lastIndexOf('\n', s) < dash) found.itemPad = s - dash;
        }
        walk(item);
      }
    }
  };
  walk(root);
  return {
    indent: found.indent ?? DEFAULT_STYLE.indent,
    seqIndent: found.seqIndent ?? DEFAULT_STYLE.seqIndent,
    itemPad: found.itemPad ?? DEFAULT_STYLE.itemPad,
  };
}
