import { describe, expect, it } from 'vitest';
import { isMap, isSeq, parse, type YAMLMap, type YAMLSeq } from 'yaml';
import { FALLBACK, type DocEditor, type FallbackReason } from '../../../src/core/manifest/editor.js';
import { arrange } from '../../../src/core/manifest/patch/arrange.js';
import { hadNoValue } from '../../../src/core/manifest/patch/fallback.js';
import { parseManifestStream } from '../../../src/core/manifest/stream.js';

/*
 * Every reason the editor gives up on line patches and lets the yaml library write the document,
 * each with the smallest input and edit that needs it. Whatever wrote it, the text must read back
 * as the edited model.
 */

function map(node: unknown): YAMLMap {
  if (!isMap(node)) throw new Error('expected a mapping');
  return node;
}

function seq(node: unknown): YAMLSeq {
  if (!isSeq(node)) throw new Error('expected a sequence');
  return node;
}

interface Case {
  reason: FallbackReason;
  text: string;
  change: (ed: DocEditor, root: YAMLMap) => void;
}

const CASES: Case[] = [
  {
    reason: FALLBACK.anchorUsedAsItemOrKey,
    text: 'a: &l\n  x: 1\nb:\n- *l\n',
    change: (ed, root) => ed.setString(map(ed.getMap(root, 'a')), 'y', '2'),
  },
  {
    reason: FALLBACK.nonScalarReplaced,
    text: 'm:\n  k:\n    x: 1\n',
    change: (ed, root) => ed.setString(map(ed.getMap(root, 'm')), 'k', 'v'),
  },
  {
    reason: FALLBACK.removedFromFlowMapping,
    text: 'm: {a: 1,\n  b: 2}\n',
    change: (ed, root) => ed.deleteKey(map(ed.getMap(root, 'm')), 'a'),
  },
  {
    reason: FALLBACK.removedKeySharesLine,
    text: 's:\n- a: 1\n  b: 2\n',
    change: (ed, root) => ed.deleteKey(map(seq(ed.getSeq(root, 's')).items[0]), 'a'),
  },
  {
    reason: FALLBACK.removedItemSharesLine,
    text: 's: [a, b]\n',
    change: (ed, root) => ed.removeItems(seq(ed.getSeq(root, 's')), (i) => String(i) === 'a'),
  },
  {
    reason: FALLBACK.replacedValueSpansLines,
    text: 'm:\n  k: v\n',
    change: (ed, root) => ed.setString(map(ed.getMap(root, 'm')), 'k', 'two\nlines\n'),
  },
  {
    reason: FALLBACK.addedBeforeKeySharingLine,
    text: 't:\n- spec:\n    x: 1\n',
    change: (ed, root) => ed.setString(ed.ensureMap(map(seq(ed.getSeq(root, 't')).items[0]), 'metadata', 'spec'), 'a', 'b'),
  },
  {
    reason: FALLBACK.addedToFlowMapping,
    text: 'm: {a: 1,\n  b: 2}\n',
    change: (ed, root) => ed.setString(map(ed.getMap(root, 'm')), 'c', '3'),
  },
  {
    reason: FALLBACK.addedToFlowMappingWithoutKey,
    text: '--- {}\n',
    change: (ed, root) => ed.setString(root, 'a', 'b'),
  },
  {
    reason: FALLBACK.addedToMappingWithoutBlockLayout,
    text: '? a\n: 1\n',
    change: (ed, root) => ed.setString(root, 'b', '2'),
  },
  {
    reason: FALLBACK.addedToFlowSequence,
    text: 's: [a]\n',
    change: (ed, root) => ed.insertItems(seq(ed.getSeq(root, 's')), 'end', ['b']),
  },
  {
    reason: FALLBACK.addedToFlowSequenceWithoutKey,
    text: 's:\n- []\n',
    change: (ed, root) => ed.insertItems(seq(seq(ed.getSeq(root, 's')).items[0]), 'end', ['b']),
  },
  {
    reason: FALLBACK.addedToSequenceWithoutBlockLayout,
    text: 's:\n- - a\n  - b\n',
    change: (ed, root) => ed.insertItems(seq(seq(ed.getSeq(root, 's')).items[0]), 'end', ['c']),
  },
  {
    reason: FALLBACK.aliasWithoutKeyReplaced,
    text: 'b: &b\n  k: 1\na: &l\n  inner: *b\nc: *l\n',
    change: (ed, root) => ed.setString(map(ed.editMap(map(ed.editMap(root, 'c')), 'inner')), 'z', '1'),
  },
  {
    reason: hadNoValue('annotations'),
    text: 'm:\n  annotations:\n',
    change: (ed, root) => ed.setString(ed.ensureMap(map(ed.getMap(root, 'm')), 'annotations'), 'a', 'b'),
  },
];

describe('DocEditor fallback to the yaml library', () => {
  for (const c of CASES) {
    it(`falls back when ${c.reason}`, () => {
      const [d] = parseManifestStream({ name: 't.yaml', text: c.text }).docs;
      if (!d) throw new Error('no document');
      const ed = d.edit();
      const root = ed.root();
      if (!root) throw new Error('no mapping at the root');
      c.change(ed, root);
      const out = ed.render();
      expect(ed.fallback).toBe(c.reason);
      expect(parse(out, { version: '1.1' })).toEqual(d.doc.toJS());
    });
  }

  it('falls back when edits overlap', () => {
    const r = arrange([
      { start: 0, end: 5, text: 'x', order: 0 },
      { start: 3, end: 8, text: 'y', order: 1 },
    ]);
    expect(r).toEqual({ fallback: FALLBACK.editsOverlap });
  });

  it('names every reason in the table', () => {
    const named = new Set<string>([...CASES.map((c) => c.reason), FALLBACK.editsOverlap]);
    expect(Object.values(FALLBACK).filter((r) => !named.has(r))).toEqual([]);
  });
});
