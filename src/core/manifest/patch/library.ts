import { Pair, isMap, isNode, isSeq, visit, type Document, type YAMLMap } from 'yaml';
import type { BlockStyle } from '../emit.js';
import { scalarStyle } from '../scalars.js';
import type { Collection } from './patch.js';

/*
 * The fallback writer: the whole document as the yaml library writes it, in the document's own
 * indentation and line breaks. It still keeps comments, key order, quoting and anchors.
 */

export interface LibraryContext {
  /** The document's original text. */
  region: string;
  style: BlockStyle;
  nl: string;
  /** Collections the edits changed (made block style, with everything above them). */
  edited: readonly Collection[];
  parents: WeakMap<object, { map: YAMLMap; pair: Pair }>;
}

/**
 * A flow collection cannot hold block ones: what we changed, and everything above it, is written
 * in block style; untouched flow collections beside it keep their style.
 */
function unflowEditedPath(doc: Document, ctx: LibraryContext): void {
  if (ctx.edited.length === 0) return;
  for (const start of ctx.edited) {
    for (let c: Collection | undefined = start; c; c = ctx.parents.get(c)?.map) c.flow = false;
  }
  if (isMap(doc.contents) || isSeq(doc.contents)) doc.contents.flow = false;
}

/** Plain data we inserted becomes nodes styled like the lines we would have written. */
function materialize(doc: Document): void {
  const toNode = (v: unknown): unknown => {
    if (isNode(v) || v instanceof Pair) return v;
    const node = doc.createNode(v);
    visit(node, {
      Scalar: (_k, s) => {
        if (typeof s.value === 'string') s.type = scalarStyle(s.value);
      },
    });
    return node;
  };
  visit(doc, {
    Seq: (_k, seq) => {
      seq.items = seq.items.map(toNode);
    },
    Pair: (_k, pair) => {
      pair.value = toNode(pair.value);
    },
  });
}

export function libraryText(doc: Document, ctx: LibraryContext): string {
  materialize(doc);
  unflowEditedPath(doc, ctx);
  const s = doc.toString({
    indent: ctx.style.indent,
    indentSeq: ctx.style.seqIndent > 0,
    lineWidth: 0,
    minContentWidth: 0,
    // `{a: b}` stays `{a: b}` in documents written that way.
    flowCollectionPadding: !/[{[][^\s\]}]/.test(ctx.region),
  });
  // The library drops a byte-order mark; the input's stays where it was.
  const bom = ctx.region.startsWith('\ufeff') && !s.startsWith('\ufeff') ? '\ufeff' : '';
  return bom + (ctx.nl === '\n' ? s : s.replace(/\n/g, ctx.nl));
}
