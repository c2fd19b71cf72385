import { describe, expect, it } from 'vitest';
import { JsonLimitError, checkJsonText, parseJsonBounded } from '../../../src/core/input/boundedJson.js';
import { loadYaml } from '../../../src/core/input/loadYaml.js';
import { DOCUMENT_TOO_LARGE, collectionBudget } from '../../../src/core/input/treeLimits.js';

/* Issue 24 item 12: JSON and YAML are held to a collection budget for their size, and to a deadline, while they are parsed. */

const dense = (n: number) => `{"items":[${'{},'.repeat(n)}{}]}`;

describe('parseJsonBounded', () => {
  it('parses what real API answers look like, strings full of braces included', () => {
    const text = JSON.stringify({ items: [{ metadata: { name: 'a', annotations: { x: '{{{[[[\\"' } } }] });
    expect(parseJsonBounded(text)).toEqual(JSON.parse(text));
  });

  it('refuses a text of `{}` denser than one collection per 16 bytes, before building it', () => {
    const text = dense(300_000);
    expect(300_000).toBeGreaterThan(collectionBudget(text.length));
    expect(() => parseJsonBounded(text)).toThrow(/^more than 156,250 objects and lists for its size \(one per 16 bytes, plus 100,000\); refusing to parse it$/);
  });

  it('accepts the same collections spread over a text of the size they need', () => {
    const n = 300_000;
    const items = Array.from({ length: n }, () => '{"name":"web-12345","ready":true}').join(',');
    expect((parseJsonBounded(`{"items":[${items}]}`) as { items: unknown[] }).items).toHaveLength(n);
  });

  it('refuses nesting deeper than 256 levels', () => {
    expect(() => parseJsonBounded(`${'['.repeat(257)}${']'.repeat(257)}`)).toThrow(/^nested more than 256 levels deep$/);
    expect(parseJsonBounded(`${'['.repeat(256)}${']'.repeat(256)}`)).toBeInstanceOf(Array);
  });

  it('refuses a top-level value of more than maxNodes nodes at its start, counting each value of a stream alone', () => {
    const values = (n: number) => `{"list":[${'1,'.repeat(n - 1)}1]}`;
    // A map, a list and n values: the check counts the two collections and the n - 1 commas.
    expect(() => parseJsonBounded(values(999), { maxNodes: 1000 })).not.toThrow();
    let err: unknown;
    const first = values(999);
    try {
      checkJsonText(`${first}\n${values(1000)}`, { maxNodes: 1000 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(JsonLimitError);
    expect((err as JsonLimitError).message).toBe(DOCUMENT_TOO_LARGE);
    expect((err as JsonLimitError).offset).toBe(first.length + 1);
    // Without maxNodes (API answers) only the collection budget applies.
    expect(() => parseJsonBounded(values(200_000))).not.toThrow();
  });

  it('stops at the deadline', () => {
    const text = JSON.stringify({ s: 'x'.repeat(3 << 20) });
    let err: unknown;
    try {
      parseJsonBounded(text, { deadline: performance.now() - 1 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(JsonLimitError);
    expect((err as JsonLimitError).why).toBe('deadline');
  });
});

describe('loadYaml', () => {
  it('counts mappings and sequences as it parses: a flow list of `{}` is refused', () => {
    expect(() => loadYaml(`x: [${'{}, '.repeat(300_000)}{}]`, 'values.yaml')).toThrow(/^values\.yaml: more than 175,000 objects and lists for its size/);
  });

  it('stops at the deadline, counted in parser events', () => {
    const text = Array.from({ length: 10_000 }, (_, i) => `k${i}: v`).join('\n');
    expect(() => loadYaml(text, 'linkerd-config', { deadline: performance.now() - 1 })).toThrow(/^linkerd-config: deadline passed while parsing$/);
    expect(Object.keys(loadYaml(text, 'linkerd-config', { deadline: performance.now() + 60_000 }) as object)).toHaveLength(10_000);
  });
});

describe("linkerd-config's values", () => {
  it('get the values files’ 16 MiB limit', async () => {
    const { parseLinkerdConfigValues } = await import('../../../src/core/kube/linkerdConfig.js');
    const values = `linkerdVersion: x\npad: ${'a'.repeat(16 << 20)}\n`;
    expect(() => parseLinkerdConfigValues({ data: { values } })).toThrow(
      /^failed to parse linkerd-config values: values: larger than the 16 MiB limit for values files$/,
    );
    expect(parseLinkerdConfigValues({ data: { values: 'linkerdVersion: x\n' } })).toEqual({ linkerdVersion: 'x' });
  });
});
