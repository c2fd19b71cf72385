import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { sidecarParts } from '../../../templates/proxy/index.js';
import { itemsLines, mapLines, pairLines, sortKeysDeep, type BlockStyle } from '../../../src/core/manifest/emit.js';
import { defaultValues } from '../../../src/core/values/defaults.js';

const KUBECTL: BlockStyle = { indent: 2, seqIndent: 0, itemPad: 2 };
const INDENTED: BlockStyle = { indent: 2, seqIndent: 2, itemPad: 2 };
const WIDE: BlockStyle = { indent: 4, seqIndent: 4, itemPad: 4 };

const anchors = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

function proxySpec(): unknown {
  const v = defaultValues();
  v.identityTrustAnchorsPEM = anchors;
  return sortKeysDeep(sidecarParts(v, { controlPlaneNamespace: 'linkerd', podSpec: { containers: [{ name: 'app', ports: [{ containerPort: 8080 }] }] } }));
}

describe('block emitter', () => {
  it('writes exactly what the yaml library writes for the same layout', () => {
    const value = proxySpec();
    expect(mapLines(value as never, 0, INDENTED).join('\n') + '\n').toBe(stringify(value, { lineWidth: 0, indentSeq: true, version: '1.1' }));
    expect(mapLines(value as never, 0, KUBECTL).join('\n') + '\n').toBe(stringify(value, { lineWidth: 0, indentSeq: false, version: '1.1' }));
  });

  it('reads back as the same data in every layout and at any column', () => {
    const value = proxySpec();
    for (const style of [KUBECTL, INDENTED, WIDE]) {
      const text = ['root:', ...mapLines(value as never, 6, style)].join('\n');
      expect(parse(text, { version: '1.1' }).root).toEqual(value);
    }
  });

  it('writes sequence items with the dash at the given column and the content after the pad', () => {
    expect(itemsLines([{ name: 'a', image: 'b' }, 'x', []], 4, WIDE)).toEqual(['    -   name: a', '        image: b', '    -   x', '    -   []']);
  });

  it('writes empty collections inline and multi-line strings as literal blocks', () => {
    expect(pairLines('emptyDir', {}, 0, KUBECTL)).toEqual(['emptyDir: {}']);
    expect(pairLines('args', [], 2, KUBECTL)).toEqual(['  args: []']);
    expect(pairLines('value', 'a\nb\n', 2, KUBECTL)).toEqual(['  value: |', '    a', '    b']);
  });

  it('round-trips arbitrary JSON-like data', () => {
    const key = fc.string({ minLength: 1, maxLength: 8 });
    const leaf = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
    const tree = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(key, tie('node'), { maxKeys: 4 })),
    })).node;
    fc.assert(
      fc.property(fc.dictionary(key, tree, { minKeys: 1, maxKeys: 5 }), fc.constantFrom(KUBECTL, INDENTED, WIDE), (value, style) => {
        const text = mapLines(value as never, 0, style).join('\n') + '\n';
        expect(parse(text, { version: '1.1', uniqueKeys: false })).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
  });
});

describe('sortKeysDeep', () => {
  it('orders keys by bytes at every level and returns sorted subtrees as they are', () => {
    const sorted = { a: 1, b: [{ x: 1, y: 2 }] };
    expect(sortKeysDeep(sorted)).toBe(sorted);
    expect(Object.keys(sortKeysDeep({ b: 1, B: 2, a: { d: 1, c: 2 } }))).toEqual(['B', 'a', 'b']);
    expect(Object.keys(sortKeysDeep({ a: { d: 1, c: 2 } }).a)).toEqual(['c', 'd']);
  });
});
