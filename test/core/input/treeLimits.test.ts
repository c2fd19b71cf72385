import yaml from 'js-yaml';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_NODES, MAX_NESTING_DEPTH, checkPlainTree, checkYamlDepth, checkYamlNode } from '../../../src/core/input/treeLimits.js';
import { loadYaml } from '../../../src/core/input/loadYaml.js';
import { aliasBombValues, podWithSharedResources } from '../../support/hostile.js';

describe('the alias and depth limit (issue 10 items 2 and 11)', () => {
  it('counts aliases by what they expand to: 119 uses of a small anchor pass, a billion laughs does not', () => {
    const pod = parseDocument(podWithSharedResources(119));
    expect(checkYamlNode(pod)).toBeUndefined();
    const bomb = parseDocument(aliasBombValues());
    expect(checkYamlNode(bomb)?.kind).toBe('expansion');
    // Only the part asked about counts: the bomb's first level is small.
    const first = bomb.get('a', true);
    expect(checkYamlNode(bomb, first)).toBeUndefined();
  });

  it('measures plain data with shared objects (what js-yaml makes of aliases) without walking the expansion', () => {
    let level: unknown = ['lol'];
    for (let i = 0; i < 40; i++) level = [level, level]; // 2^40 leaves, 41 objects
    expect(checkPlainTree({ top: level })?.kind).toBe('expansion');
    expect(checkPlainTree(yaml.load(podWithSharedResources(119)))).toBeUndefined();
  });

  it('refuses merge-key bombs, which rebuild the merged map at every use', () => {
    const lines = ['a0: &a0 {x: 1, y: 2}'];
    for (let i = 1; i < 30; i++) lines.push(`a${i}: &a${i} {p: {<<: *a${i - 1}}, q: {<<: *a${i - 1}}}`);
    const doc = parseDocument(lines.join('\n'), { version: '1.1' });
    expect(checkYamlNode(doc)?.kind).toBe('expansion');
  });

  it('refuses recursive aliases', () => {
    const doc = parseDocument('a: &a [1, *a]\n');
    expect(checkYamlNode(doc)?.kind).toBe('recursive');
  });

  it(`limits nesting to ${MAX_NESTING_DEPTH} levels, aliases expanded or not`, () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(checkYamlDepth(parseDocument(deep(MAX_NESTING_DEPTH)))).toBeUndefined();
    expect(checkYamlDepth(parseDocument(deep(MAX_NESTING_DEPTH + 1)))?.kind).toBe('depth');
    expect(checkPlainTree(JSON.parse(deep(MAX_NESTING_DEPTH + 1)))?.kind).toBe('depth');
    // 200 levels under an anchor, used 200 levels deep: 400 once expanded.
    const inner = `${'['.repeat(200)}1${']'.repeat(200)}`;
    const doc = parseDocument(`a: &a ${inner}\nb: ${'['.repeat(200)}*a${']'.repeat(200)}\n`);
    expect(checkYamlDepth(doc)).toBeUndefined();
    expect(checkYamlNode(doc)?.kind).toBe('depth');
  });

  it('loadYaml names the source and keeps js-yaml syntax errors as they are', () => {
    expect(() => loadYaml(aliasBombValues(), 'values.yaml')).toThrow(/^values\.yaml: aliases expand it past 1,000,000 nodes/);
    expect(() => loadYaml('a: [', 'values.yaml')).toThrow(yaml.YAMLException);
    expect(loadYaml('a: &x {b: 1}\nc: *x\n')).toEqual({ a: { b: 1 }, c: { b: 1 } });
  });
});

describe('the node limit of one document (issue 24 item 12)', () => {
  it('refuses a document of more than MAX_DOCUMENT_NODES nodes (dense `[{},{},…]`) with one reason, and takes one at the limit', () => {
    const dense = Array.from({ length: MAX_DOCUMENT_NODES }, () => ({}));
    expect(checkPlainTree(dense)).toEqual({
      kind: 'size',
      reason: 'more than 4,000,000 nodes (maps, lists and values) in one document; refusing to read it',
    });
    dense.pop();
    expect(checkPlainTree(dense)).toBeUndefined();
  });
});
