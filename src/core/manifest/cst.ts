import { CST, Document, Parser, isScalar, type DocumentOptions, type ParseOptions, type SchemaOptions } from 'yaml';

/*
 * One YAML document read from the library's CST (Parser only, no Document composed) into a light
 * tree with the same node ranges the composer would give, for the inject fast path. Only a plain
 * subset is read: block mappings and sequences, one-line flow collections of scalars, plain and
 * quoted scalars and block scalars, comments; no tabs, CRs, BOMs, directives, anchors, aliases,
 * tags, explicit or merge keys, empty values, non-string keys or duplicate keys. Anything else — and
 * anything the parser or the scalar resolution reports — gives undefined: such a document goes
 * through the Document path, which reads or rejects it as before. Scalars resolve through the
 * schema of the same options (YAML 1.1 as stream.ts reads it).
 */

export interface CstScalar {
  readonly type: 'scalar';
  /** The composer's node range: start, end of the value, end after its comment and line break. */
  readonly range: readonly [number, number, number];
  readonly value: string | number | boolean | null;
}

export interface CstPair {
  readonly key: string;
  readonly keyStart: number;
  readonly value: CstNode;
}

export interface CstMap {
  readonly type: 'map';
  readonly range: readonly [number, number, number];
  readonly flow: boolean;
  readonly pairs: readonly CstPair[];
}

export interface CstSeq {
  readonly type: 'seq';
  readonly range: readonly [number, number, number];
  readonly flow: boolean;
  readonly items: readonly CstNode[];
}

export type CstNode = CstScalar | CstMap | CstSeq;

/** Nesting and size past which the Document path (and its limits) decides. */
const MAX_DEPTH = 64;
const MAX_NODES = 100_000;
const MAX_KEY_SPAN = 1000;

interface ScalarTag {
  default?: boolean | 'key';
  test?: RegExp;
  resolve: (value: string, onError: (message: string) => void, options: object) => unknown;
}

class Unreadable extends Error {}

const fail = (): never => {
  throw new Unreadable();
};

type Token = CST.Token;
type SourceToken = CST.SourceToken;

export class CstReader {
  private readonly tags: readonly ScalarTag[];
  private readonly options: object;
  private nodes = 0;
  /** Plain scalars resolved so far (a pure function of the source): manifests repeat most of them. */
  private readonly plainValues = new Map<string, string | number | boolean | null>();
  private readonly plainKeys = new Map<string, string | number | boolean | null>();

  constructor(options: ParseOptions & DocumentOptions & SchemaOptions) {
    const doc = new Document(null, options);
    this.tags = doc.schema.tags as unknown[] as ScalarTag[];
    this.options = doc.options;
  }

  /** The document's root mapping, or undefined when the text is outside the subset. */
  read(text: string): CstMap | undefined {
    if (/[\t\r\ufeff]/.test(text)) return undefined;
    this.nodes = 0;
    try {
      let doc: CST.Document | undefined;
      for (const token of new Parser().parse(text)) {
        if (token.type === 'document' && doc === undefined) doc = token;
        else if (token.type !== 'comment' && token.type !== 'newline' && token.type !== 'space') return undefined;
      }
      if (!doc?.value || doc.value.type !== 'block-map') return undefined;
      let newline = false;
      for (const t of doc.start) {
        if (t.type === 'newline') newline = true;
        else if (t.type !== 'doc-start' && t.type !== 'space' && t.type !== 'comment') return undefined;
        if (t.type === 'comment') this.commentSpaced(text, t);
      }
      if (doc.start.some((t) => t.type === 'doc-start') && !newline) return undefined;
      this.ends(text, doc.end);
      const root = this.node(text, doc.value, 0);
      return root.type === 'map' ? root : undefined;
    } catch (e) {
      if (e instanceof Unreadable) return undefined;
      throw e;
    }
  }

  /** A comment must follow white space (the composer reports one that does not). */
  private commentSpaced(text: string, t: SourceToken): void {
    const before = text[t.offset - 1];
    if (t.offset > 0 && before !== ' ' && before !== '\n') fail();
  }

  /** Tokens after a node or a document: spaces, comments and line breaks only. */
  private ends(text: string, end: readonly SourceToken[] | undefined): number {
    let n = 0;
    for (const t of end ?? []) {
      if (t.type === 'comment') this.commentSpaced(text, t);
      else if (t.type !== 'space' && t.type !== 'newline') fail();
      n += t.source.length;
    }
    return n;
  }

  private node(text: string, token: Token, depth: number): CstNode {
    if (depth > MAX_DEPTH || ++this.nodes > MAX_NODES) fail();
    switch (token.type) {
      case 'block-map':
        return this.blockMap(text, token, depth);
      case 'block-seq':
        return this.blockSeq(text, token, depth);
      case 'flow-collection':
        return this.flow(text, token);
      case 'scalar':
      case 'single-quoted-scalar':
      case 'double-quoted-scalar':
      case 'block-scalar':
        return this.scalar(text, token, false);
      default:
        return fail();
    }
  }

  private scalar(text: string, token: CST.FlowScalar | CST.BlockScalar, atKey: boolean): CstScalar {
    if (token.type === 'block-scalar') {
      for (const p of token.props) if (p.type !== 'block-scalar-header' && p.type !== 'newline' && p.type !== 'space' && p.type !== 'comment') fail();
    } else if (token.type !== 'scalar' && token.type !== 'single-quoted-scalar' && token.type !== 'double-quoted-scalar') {
      fail();
    } else {
      this.ends(text, token.end);
    }
    if (token.type === 'scalar' && token.source === '') fail();
    const r = CST.resolveAsScalar(token, true, fail);
    const value = token.type === 'scalar' ? this.plain(r.value, atKey) : r.value;
    return { type: 'scalar', range: [r.range[0], r.range[1], r.range[2]], value };
  }

  private plain(source: string, atKey: boolean): string | number | boolean | null {
    const memo = atKey ? this.plainKeys : this.plainValues;
    const known = memo.get(source);
    if (known !== undefined) return known;
    const value = this.resolvePlain(source, atKey);
    if (memo.size >= 10_000) memo.clear();
    memo.set(source, value);
    return value;
  }

  /** A plain scalar's value: the first default tag of the schema whose test matches, as the composer picks it. */
  private resolvePlain(source: string, atKey: boolean): string | number | boolean | null {
    const tag = this.tags.find((t) => (t.default === true || (atKey && t.default === 'key')) && t.test?.test(source) === true);
    if (!tag) return source;
    const resolved = tag.resolve(source, fail, this.options);
    // YAML 1.1 booleans come back as a Scalar (keeping their source), as the composer unwraps them.
    const v = isScalar(resolved) ? resolved.value : resolved;
    if (v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && !atKey)) return v;
    return fail();
  }

  private key(text: string, item: CST.CollectionItem, indent: number | undefined): { key: string; keyStart: number } {
    const k = item.key;
    if (!k || (k.type !== 'scalar' && k.type !== 'single-quoted-scalar' && k.type !== 'double-quoted-scalar')) return fail();
    if ((indent !== undefined && k.indent !== indent) || k.source.includes('\n') || (k.end ?? []).some((t) => t.type === 'newline')) fail();
    const s = this.scalar(text, k, true);
    if (typeof s.value !== 'string' || s.value === '__proto__' || s.value === '<<') fail();
    return { key: s.value as string, keyStart: k.offset };
  }

  /** `sep` of a pair: spaces, comments and line breaks around one `:`; whether a line break follows it. */
  private sep(text: string, item: CST.CollectionItem, keyStart: number): boolean {
    let found: SourceToken | undefined;
    let newline = false;
    for (const t of item.sep ?? []) {
      if (t.type === 'map-value-ind') {
        if (found) fail();
        found = t;
      } else if (t.type === 'newline') newline = true;
      else if (t.type === 'comment') this.commentSpaced(text, t);
      else if (t.type !== 'space') fail();
    }
    if (!found || found.offset - keyStart > MAX_KEY_SPAN) fail();
    return newline;
  }

  private blockMap(text: string, bm: CST.BlockMap, depth: number): CstMap {
    const pairs: CstPair[] = [];
    const keys = new Set<string>();
    let offset = bm.offset;
    let commentEnd: number | undefined;
    for (const [i, item] of (bm.items as Array<CST.CollectionItem & { explicitKey?: true }>).entries()) {
      for (const t of item.start) {
        if (t.type === 'comment') this.commentSpaced(text, t);
        else if (t.type !== 'space' && t.type !== 'newline') fail();
      }
      if (!item.key && !item.sep && !item.value) {
        // A comment-only item, as the last one (elsewhere the composer calls it impossible).
        if (i !== bm.items.length - 1) fail();
        const last = item.start[item.start.length - 1];
        commentEnd = last ? last.offset + last.source.length : offset;
        continue;
      }
      if (item.explicitKey) fail();
      const { key, keyStart } = this.key(text, item, bm.indent);
      if (keys.has(key)) fail();
      keys.add(key);
      const newline = this.sep(text, item, keyStart);
      const token = item.value;
      if (!token) return fail();
      if ((token.type === 'block-map' || token.type === 'block-seq') && !newline) fail();
      const value = this.node(text, token, depth + 1);
      offset = value.range[2];
      pairs.push({ key, keyStart, value });
    }
    if (commentEnd !== undefined && commentEnd < offset) fail();
    return { type: 'map', range: [bm.offset, offset, commentEnd ?? offset], flow: false, pairs };
  }

  private blockSeq(text: string, bs: CST.BlockSequence, depth: number): CstSeq {
    const items: CstNode[] = [];
    let offset = bs.offset;
    let commentEnd: number | undefined;
    for (const [i, item] of bs.items.entries()) {
      let dash = 0;
      for (const t of item.start) {
        if (t.type === 'seq-item-ind') dash++;
        else if (t.type === 'comment') this.commentSpaced(text, t);
        else if (t.type !== 'space' && t.type !== 'newline') fail();
      }
      if (dash === 0 && !item.value && i === bs.items.length - 1) {
        // Comments after the last item: they end the sequence's range[2], as the composer has it.
        const last = item.start[item.start.length - 1];
        commentEnd = last ? last.offset + last.source.length : offset;
        continue;
      }
      if (dash !== 1 || !item.value || item.value.type === 'block-seq') fail();
      const value = this.node(text, item.value as Token, depth + 1);
      offset = value.range[2];
      items.push(value);
    }
    return { type: 'seq', range: [bs.offset, offset, commentEnd ?? offset], flow: false, items };
  }

  /** A one-line flow collection of scalars (`[a, "b"]`, `{cpu: 1, memory: 64Mi}`). */
  private flow(text: string, fc: CST.FlowCollection): CstNode {
    const isMap = fc.start.source === '{';
    const [close, ...rest] = fc.end;
    if (close?.source !== (isMap ? '}' : ']')) fail();
    const cePos = (close?.offset ?? 0) + 1;
    if (text.slice(fc.offset, cePos).includes('\n')) fail();
    const endOffset = cePos + this.ends(text, rest);
    const values: CstScalar[] = [];
    const pairs: CstPair[] = [];
    const keys = new Set<string>();
    for (const [i, item] of fc.items.entries()) {
      let commas = 0;
      for (const t of item.start) {
        if (t.type === 'comma') commas++;
        else if (t.type !== 'space') fail();
      }
      if (commas !== (i === 0 ? 0 : 1) || !item.value) fail();
      const v = item.value as Token;
      if (v.type !== 'scalar' && v.type !== 'single-quoted-scalar' && v.type !== 'double-quoted-scalar') return fail();
      if (isMap) {
        const { key, keyStart } = this.key(text, item, undefined);
        if (keys.has(key)) fail();
        keys.add(key);
        // `key: value` with a space after the colon, nothing else.
        const sep = item.sep ?? [];
        if (sep.length !== 2 || sep[0]?.type !== 'map-value-ind' || sep[1]?.type !== 'space') fail();
        pairs.push({ key, keyStart, value: this.scalar(text, v, false) });
      } else {
        if (item.key !== undefined || item.sep !== undefined) fail();
        values.push(this.scalar(text, v, false));
      }
      if (++this.nodes > MAX_NODES) fail();
    }
    const range = [fc.offset, cePos, rest.length > 0 ? endOffset : cePos] as const;
    return isMap ? { type: 'map', range, flow: true, pairs } : { type: 'seq', range, flow: true, items: values };
  }
}

/** A node as plain data, as the Document's toJS gives it. */
export function cstPlain(node: CstNode): unknown {
  if (node.type === 'scalar') return node.value;
  if (node.type === 'seq') return node.items.map(cstPlain);
  const out: Record<string, unknown> = {};
  for (const p of node.pairs) out[p.key] = cstPlain(p.value);
  return out;
}

/** The value under `key` of a mapping. */
export function cstGet(map: CstMap | undefined, key: string): CstNode | undefined {
  return map?.pairs.find((p) => p.key === key)?.value;
}

export function cstMap(node: CstNode | undefined): CstMap | undefined {
  return node?.type === 'map' ? node : undefined;
}

export function cstSeq(node: CstNode | undefined): CstSeq | undefined {
  return node?.type === 'seq' ? node : undefined;
}
