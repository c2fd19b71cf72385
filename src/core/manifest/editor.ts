import { Pair, Scalar, YAMLMap, YAMLSeq, isAlias, isMap, isNode, isScalar, isSeq, visit, type Document, type Node } from 'yaml';
import { itemsLines, mapLines, pairLines, type BlockStyle } from './emit.js';
import { scalarStyle } from './scalars.js';
import { columnOf, dashOffset, lineStartOf } from './style.js';
import { UserError } from '../errors.js';
import { deepEqual } from '../values/tree.js';
import { toPlain } from './positions.js';

/*
 * Edits one parsed document through the yaml Document API and writes the result back as the user's
 * own text with only the edited lines changed.
 *
 * Every operation changes the Document (so reads, toJS and JSON output see the new state) and is
 * remembered against the original node positions. When the document is written, the operations
 * become text patches: added lines rendered in the document's own layout, removed lines cut out,
 * replaced scalars swapped in place. Everything else — comments, quoting, anchors, blank lines,
 * odd spacing — stays byte for byte. Shapes a line patch cannot express safely (a non-empty flow
 * collection, an edit through an alias, a key sharing its line) make the document fall back to the
 * yaml library's own stringifier, which still keeps comments, order, quoting and anchors.
 */

type Collection = YAMLMap | YAMLSeq;

interface Patch {
  start: number;
  end: number;
  text: string;
  order: number;
  /** Column of inserted lines: at one offset, what goes into a nested collection comes first. */
  col?: number;
}

interface Tombstone {
  pair: Pair;
  index: number;
}

export interface DocRegion {
  /** Offset of the document's first byte in the stream text (its `---`, or 0 for the first). */
  start: number;
  /** Offset just past its last byte (the next document's `---`, or the end of the text). */
  end: number;
}

/** A document that is not the shape Kubernetes needs where we must edit (e.g. `annotations: "x"`). */
export class ManifestShapeError extends UserError {}


export function keyOf(pair: Pair): string {
  const k = pair.key;
  if (isScalar(k)) return String(k.value);
  return String(k);
}

function rangeOf(node: unknown): [number, number, number] | undefined {
  const r = isNode(node) ? node.range : undefined;
  return r ?? undefined;
}

/** A scalar node styled like the lines we emit (used when the library stringifies). */
function scalarNode(value: string): Scalar {
  const s = new Scalar(value);
  s.type = scalarStyle(value);
  return s;
}

export class DocEditor {
  /** True once any operation changed the document. */
  changed = false;
  private fallbackReason: string | undefined;
  private readonly nl: string;
  private readonly origItems = new Map<Collection, unknown[]>();
  private readonly appended = new Map<YAMLMap, Pair[]>();
  /** New pairs placed before an existing key rather than at the end. */
  private readonly placedBefore = new Map<Pair, Pair>();
  private readonly replaced = new Set<Pair>();
  private readonly tombstones = new Map<YAMLMap, Map<string, Tombstone>>();
  private readonly seqInserts = new Map<YAMLSeq, { start: unknown[]; end: unknown[] }>();
  private readonly deletedItems = new Set<Node>();
  private readonly parents = new WeakMap<object, { map: YAMLMap; pair: Pair }>();
  /** Private copies that replaced aliases, written out in full where the alias was. */
  private readonly dealiased: Array<{ copy: Collection; alias: Node; keyStart: number | undefined }> = [];
  /** The document as plain data before the first change. */
  private before: unknown;
  private snapshotted = false;
  /** Something was added before the snapshot: the edits cannot cancel out. */
  private addedFirst = false;

  constructor(
    readonly doc: Document,
    private readonly text: string,
    readonly region: DocRegion,
    /** The document's layout, measured only when lines must be written. */
    private readonly styleOf: () => BlockStyle,
    /** False for documents without source positions (JSON input): only the model is edited. */
    private readonly positional = true,
    /** The input's name, for errors. */
    private readonly sourceName = '',
  ) {
    this.nl = text.slice(region.start, region.end).includes('\r\n') ? '\r\n' : '\n';
  }

  private styleMemo: BlockStyle | undefined;

  get style(): BlockStyle {
    this.styleMemo ??= this.styleOf();
    return this.styleMemo;
  }

  /** Why the document must be re-stringified by the library, if it must. */
  get fallback(): string | undefined {
    return this.fallbackReason;
  }

  // ---------------------------------------------------------------- reading

  root(): YAMLMap | undefined {
    return isMap(this.doc.contents) ? this.doc.contents : undefined;
  }

  findPair(map: YAMLMap, key: string): Pair | undefined {
    return map.items.find((p) => keyOf(p) === key);
  }

  /** The value under `key`, aliases resolved (nothing is changed). */
  private value(map: YAMLMap, key: string): { pair: Pair; value: unknown } | undefined {
    const pair = this.findPair(map, key);
    if (!pair) return undefined;
    const v = pair.value;
    return { pair, value: isAlias(v) ? v.resolve(this.doc) : v };
  }

  /**
   * The value under `key`, ready to be changed: an alias to a collection is replaced by a private
   * copy first, because changing the anchored original would change every other use of it.
   */
  private editableValue(map: YAMLMap, key: string): { pair: Pair; value: unknown } | undefined {
    const pair = this.findPair(map, key);
    if (!pair) return undefined;
    const v = pair.value;
    if (!isAlias(v)) return { pair, value: v };
    const target = v.resolve(this.doc);
    if (!isMap(target) && !isSeq(target)) return { pair, value: target };
    this.snapshot();
    const copy = this.detachedCopy(target);
    pair.value = copy;
    this.dealiased.push({ copy, alias: v, keyStart: rangeOf(pair.key)?.[0] });
    this.changed = true;
    return { pair, value: copy };
  }

  /** A copy of a collection with no anchor and no source positions (it is written out whole). */
  private detachedCopy(c: Collection): Collection {
    const copy = c.clone() as Collection;
    copy.anchor = undefined;
    visit(copy, {
      Node: (_k, n) => {
        n.range = undefined;
      },
    });
    copy.range = undefined;
    return copy;
  }

  getMap(map: YAMLMap, key: string): YAMLMap | undefined {
    const found = this.value(map, key);
    if (!found || !isMap(found.value)) return undefined;
    if (found.pair.value === found.value) this.parents.set(found.value, { map, pair: found.pair });
    return found.value;
  }

  getSeq(map: YAMLMap, key: string): YAMLSeq | undefined {
    const found = this.value(map, key);
    if (!found || !isSeq(found.value)) return undefined;
    if (found.pair.value === found.value) this.parents.set(found.value, { map, pair: found.pair });
    return found.value;
  }

  /** Like getMap, for a mapping about to be changed. */
  editMap(map: YAMLMap, key: string): YAMLMap | undefined {
    const found = this.editableValue(map, key);
    if (!found || !isMap(found.value)) return undefined;
    this.parents.set(found.value, { map, pair: found.pair });
    return found.value;
  }

  /** Like getSeq, for a sequence about to be changed. */
  editSeq(map: YAMLMap, key: string): YAMLSeq | undefined {
    const found = this.editableValue(map, key);
    if (!found || !isSeq(found.value)) return undefined;
    this.parents.set(found.value, { map, pair: found.pair });
    return found.value;
  }

  private where(node?: unknown): { name: string; text: string; offset: number } {
    return { name: this.sourceName, text: this.text, offset: rangeOf(node)?.[0] ?? this.region.start };
  }

  /** The mapping at `path` under `root`, every alias on the way replaced by a private copy. */
  editPath(root: YAMLMap, path: readonly string[]): YAMLMap | undefined {
    let node: YAMLMap | undefined = root;
    for (const key of path) {
      node = this.editMap(node, key);
      if (!node) return undefined;
    }
    return node;
  }

  /** A scalar under `key` as a string (numbers and booleans stringified); undefined otherwise. */
  getString(map: YAMLMap, key: string): string | undefined {
    const found = this.value(map, key);
    const v = found?.value;
    if (!isScalar(v) || v.value === null || v.value === undefined) return undefined;
    return typeof v.value === 'string' || typeof v.value === 'number' || typeof v.value === 'boolean' || typeof v.value === 'bigint' ? String(v.value) : undefined;
  }

  /** A node (or value we added) as plain data, aliases resolved with a bound on their expansion. */
  plain(node: unknown): unknown {
    if (isNode(node)) return toPlain(this.doc, this.where(node), node);
    return node;
  }

  /** The string map under `key` (labels, annotations) as plain data. */
  stringMap(map: YAMLMap | undefined, key: string): Record<string, string> {
    const m = map && this.getMap(map, key);
    const out: Record<string, string> = {};
    if (!m) return out;
    for (const p of m.items) {
      const v = this.plain(p.value);
      out[keyOf(p)] = typeof v === 'string' ? v : v === null || v === undefined ? '' : JSON.stringify(v);
    }
    return out;
  }

  // ---------------------------------------------------------------- editing

  private original(node: unknown): boolean {
    return this.positional && rangeOf(node) !== undefined;
  }

  private fail(reason: string): void {
    this.fallbackReason ??= reason;
  }

  /** Snapshot the items of a collection before its first change, and protect anchored ones. */
  /**
   * Taken before the first removal or replacement: only those can be undone by later additions (a
   * re-injection), and only then is the comparison in unchanged() worth its cost.
   */
  private snapshot(): void {
    if (this.snapshotted) return;
    this.before = toPlain(this.doc, this.where());
    this.snapshotted = true;
  }

  private added(): void {
    if (!this.snapshotted) this.addedFirst = true;
    this.changed = true;
  }

  private touch(c: Collection): void {
    if (this.origItems.has(c)) return;
    this.origItems.set(c, [...c.items]);
    if (c.anchor) this.detachAliasesOf(c);
  }

  /** Aliases of an anchor we are about to change get a copy of the original content instead. */
  private detachAliasesOf(c: Collection): void {
    const anchor = c.anchor;
    this.snapshot();
    visit(this.doc, {
      Pair: (_key, pair) => {
        const v = pair.value;
        if (!isAlias(v) || v.source !== anchor) return undefined;
        const copy = this.detachedCopy(c);
        pair.value = copy;
        this.dealiased.push({ copy, alias: v, keyStart: rangeOf(pair.key)?.[0] });
        return undefined;
      },
      Alias: (_key, node) => {
        // An alias as a sequence item or a key: written by the library instead.
        if (node.source === anchor) this.fail('an edited anchor is used as a sequence item or key');
        return undefined;
      },
    });
  }

  private appendPair(map: YAMLMap, pair: Pair, beforeKey?: string): void {
    this.touch(map);
    const anchor = beforeKey === undefined ? undefined : this.findPair(map, beforeKey);
    if (anchor && this.original(anchor.key) && !map.flow) {
      map.items.splice(map.items.indexOf(anchor), 0, pair);
      this.placedBefore.set(pair, anchor);
    } else {
      map.items.push(pair);
    }
    if (this.original(map)) {
      const list = this.appended.get(map) ?? [];
      list.push(pair);
      this.appended.set(map, list);
    }
    this.added();
  }

  private ensureCollection<C extends Collection>(
    parent: YAMLMap,
    key: string,
    make: () => C,
    is: (v: unknown) => v is C,
    what: string,
    beforeKey?: string,
  ): C {
    const found = this.editableValue(parent, key);
    if (found && is(found.value)) {
      this.parents.set(found.value, { map: parent, pair: found.pair });
      return found.value;
    }
    const fresh = make();
    if (found) {
      const v = found.value;
      if (!(isScalar(v) && (v.value === null || v.value === undefined)) && v !== null && v !== undefined) {
        throw new ManifestShapeError(`"${key}" must be a ${what}`);
      }
      // `key:` with no value (null): replace it.
      this.snapshot();
      this.touch(parent);
      found.pair.value = fresh;
      this.fail(`"${key}" had no value`);
      this.changed = true;
      this.parents.set(fresh, { map: parent, pair: found.pair });
      return fresh;
    }
    const pair = new Pair(new Scalar(key), fresh);
    this.appendPair(parent, pair, beforeKey);
    this.parents.set(fresh, { map: parent, pair });
    return fresh;
  }

  /**
   * The mapping under `key`, created when missing: at the end of `parent`, or just before the key
   * `before` when there is one (a pod template's `metadata` goes before its `spec`).
   */
  ensureMap(parent: YAMLMap, key: string, before?: string): YAMLMap {
    return this.ensureCollection(parent, key, () => new YAMLMap(), isMap, 'mapping', before);
  }

  /** The sequence under `key`, created (at the end of `parent`) when missing. */
  ensureSeq(parent: YAMLMap, key: string): YAMLSeq {
    return this.ensureCollection(parent, key, () => new YAMLSeq(), isSeq, 'sequence');
  }

  /** Sets `key` to a string: replaced in place, restored where it was removed, or appended. */
  setString(map: YAMLMap, key: string, value: string): void {
    let pair = this.findPair(map, key);
    const tomb = this.tombstones.get(map)?.get(key);
    if (!pair && tomb) {
      this.snapshot();
      this.touch(map);
      map.items.splice(Math.min(tomb.index, map.items.length), 0, tomb.pair);
      this.tombstones.get(map)?.delete(key);
      pair = tomb.pair;
      this.changed = true;
    }
    if (!pair) {
      this.appendPair(map, new Pair(new Scalar(key), scalarNode(value)));
      return;
    }
    const v = pair.value;
    if (isScalar(v) && v.value === value) return;
    this.snapshot();
    this.touch(map);
    this.changed = true;
    if (isScalar(v) && this.original(v)) {
      v.value = value;
      v.type = scalarStyle(value);
      if (this.original(pair.key)) this.replaced.add(pair);
      else this.fail('a replaced value has no position');
      return;
    }
    pair.value = scalarNode(value);
    if (this.original(pair.key)) this.fail('a non-scalar value was replaced by a string');
  }

  /** Removes `key`; true if it was there. */
  deleteKey(map: YAMLMap, key: string): boolean {
    const index = map.items.findIndex((p) => keyOf(p) === key);
    const pair = map.items[index];
    if (pair === undefined) return false;
    this.snapshot();
    this.touch(map);
    map.items.splice(index, 1);
    this.changed = true;
    if (this.original(pair.key)) {
      const tombs = this.tombstones.get(map) ?? new Map<string, Tombstone>();
      tombs.set(key, { pair, index });
      this.tombstones.set(map, tombs);
    } else {
      const list = this.appended.get(map);
      if (list) this.appended.set(map, list.filter((p) => p !== pair));
    }
    return true;
  }

  /** Adds items (plain data) at the start or the end of a sequence. */
  insertItems(seq: YAMLSeq, where: 'start' | 'end', items: readonly unknown[]): void {
    if (items.length === 0) return;
    this.touch(seq);
    if (where === 'start') seq.items.unshift(...items);
    else seq.items.push(...items);
    this.added();
    if (this.original(seq)) {
      const ins = this.seqInserts.get(seq) ?? { start: [], end: [] };
      if (where === 'start') ins.start.push(...items);
      else ins.end.push(...items);
      this.seqInserts.set(seq, ins);
    }
  }

  /** Removes the items for which `pred` holds; returns how many. */
  removeItems(seq: YAMLSeq, pred: (item: unknown) => boolean): number {
    const keep: unknown[] = [];
    const gone: unknown[] = [];
    for (const item of seq.items) (pred(item) ? gone : keep).push(item);
    if (gone.length === 0) return 0;
    this.snapshot();
    this.touch(seq);
    seq.items = keep;
    this.changed = true;
    const ins = this.seqInserts.get(seq);
    for (const item of gone) {
      if (isNode(item) && this.original(item)) this.deletedItems.add(item);
      else if (ins) {
        ins.start = ins.start.filter((x) => x !== item);
        ins.end = ins.end.filter((x) => x !== item);
      }
    }
    return gone.length;
  }

  /**
   * Removes `coll` from its parent when edits left it empty, and the parent in turn, up to (not
   * including) `stop` — so removing what injection added also removes the keys it created.
   */
  pruneEmpty(coll: Collection, stop: YAMLMap): void {
    let c: Collection = coll;
    let before = this.origItems.get(c);
    while (c !== stop && c.items.length === 0 && before) {
      const emptiedByUs = before.length > 0 || !this.original(c);
      const parent = this.parents.get(c);
      if (!emptiedByUs || !parent) return;
      if (!this.deleteKey(parent.map, keyOf(parent.pair))) return;
      c = parent.map;
      before = this.origItems.get(c);
    }
  }

  // ---------------------------------------------------------------- writing

  /**
   * True when the edits cancel out (re-injecting with the same settings, removing and re-adding the
   * same proxy): the document is then written from its original bytes.
   */
  unchanged(): boolean {
    return !this.changed || (this.snapshotted && !this.addedFirst && deepEqual(this.before, toPlain(this.doc, this.where())));
  }

  /** The new text of the document's region. */
  render(): string {
    const original = this.text.slice(this.region.start, this.region.end);
    if (this.unchanged()) return original;
    const patches = this.fallbackReason ? undefined : this.patches();
    if (patches) {
      let out = '';
      let at = this.region.start;
      for (const p of patches) {
        out += this.text.slice(at, p.start) + p.text;
        at = p.end;
      }
      return out + this.text.slice(at, this.region.end);
    }
    return this.libraryText();
  }

  /** The document as the yaml library writes it, in the document's indentation. */
  libraryText(): string {
    this.materialize();
    this.unflowEditedPath();
    const region = this.text.slice(this.region.start, this.region.end);
    const s = this.doc.toString({
      indent: this.style.indent,
      indentSeq: this.style.seqIndent > 0,
      lineWidth: 0,
      minContentWidth: 0,
      // `{a: b}` stays `{a: b}` in documents written that way.
      flowCollectionPadding: !/[{[][^\s\]}]/.test(region),
    });
    return this.nl === '\n' ? s : s.replace(/\n/g, this.nl);
  }

  /**
   * A flow collection cannot hold block ones: what we changed, and everything above it, is written
   * in block style; untouched flow collections beside it keep their style.
   */
  private unflowEditedPath(): void {
    const edited: Collection[] = [...this.origItems.keys(), ...this.dealiased.map((d) => d.copy)];
    if (edited.length === 0) return;
    for (const start of edited) {
      for (let c: Collection | undefined = start; c; c = this.parents.get(c)?.map) c.flow = false;
    }
    if (isMap(this.doc.contents) || isSeq(this.doc.contents)) this.doc.contents.flow = false;
  }

  /** Plain data we inserted becomes nodes styled like the lines we would have written. */
  private materialize(): void {
    const toNode = (v: unknown): unknown => {
      if (isNode(v) || isPairLike(v)) return v;
      const node = this.doc.createNode(v);
      visit(node, {
        Scalar: (_k, s) => {
          if (typeof s.value === 'string') s.type = scalarStyle(s.value);
        },
      });
      return node;
    };
    visit(this.doc, {
      Seq: (_k, seq) => {
        seq.items = seq.items.map(toNode);
      },
      Pair: (_k, pair) => {
        pair.value = toNode(pair.value);
      },
    });
  }

  private lineStart(offset: number): number {
    return lineStartOf(this.text, offset);
  }

  private endOfLine(offset: number): number {
    if (offset > 0 && this.text[offset - 1] === '\n') return offset;
    const i = this.text.indexOf('\n', offset);
    return i < 0 ? this.text.length : i + 1;
  }

  private firstOnLine(offset: number): boolean {
    return /^[ \t]*$/.test(this.text.slice(this.lineStart(offset), offset));
  }

  private insertion(at: number, lines: string[]): string {
    if (at === 0 || this.text[at - 1] === '\n') return lines.map((l) => l + this.nl).join('');
    return this.nl + lines.join(this.nl);
  }

  private valueEnd(pair: Pair): number {
    return rangeOf(pair.value)?.[1] ?? rangeOf(pair.key)?.[1] ?? this.region.start;
  }

  /** The column the keys of a flow collection's parent key sit at, for turning `{}` into a block. */
  private parentKeyColumn(c: Collection): number | undefined {
    const parent = this.parents.get(c);
    const k = parent && rangeOf(parent.pair.key);
    return k ? columnOf(this.text, k[0]) : undefined;
  }

  /** Replaces an empty flow collection (`{}`/`[]`) with block lines. */
  private flowToBlock(c: Collection, lines: (col: number) => string[], order: number): Patch | undefined {
    const r = rangeOf(c);
    const keyCol = this.parentKeyColumn(c);
    if (!r || keyCol === undefined) return undefined;
    let start = r[0];
    while (start > 0 && this.text[start - 1] === ' ') start--;
    const col = keyCol + (isSeq(c) ? this.style.seqIndent : this.style.indent);
    return { start, end: r[1], text: this.nl + lines(col).join(this.nl), order };
  }

  private patches(): Patch[] | undefined {
    const out: Patch[] = [];
    let order = 0;
    // What patches() yields for an edit it cannot make in place (the caller then re-renders).
    const fail = (why: string): Patch[] | undefined => {
      this.fail(why);
      return undefined;
    };

    for (const [map, tombs] of this.tombstones) {
      if (map.flow) return fail('removed from a flow mapping');
      for (const { pair } of tombs.values()) {
        const k = rangeOf(pair.key)?.[0];
        if (k === undefined || !this.firstOnLine(k)) return fail('a removed key shares its line');
        out.push({ start: this.lineStart(k), end: this.endOfLine(this.valueEnd(pair)), text: '', order: order++ });
      }
    }

    for (const item of this.deletedItems) {
      const r = rangeOf(item);
      const dash = r ? dashOffset(this.text, r[0]) : -1;
      if (!r || dash < 0 || !this.firstOnLine(dash)) return fail('a removed item shares its line');
      out.push({ start: this.lineStart(dash), end: this.endOfLine(r[1]), text: '', order: order++ });
    }

    for (const pair of this.replaced) {
      const v = pair.value as Scalar;
      const r = rangeOf(v);
      const inline = scalarStyle(String(v.value)) === 'BLOCK_LITERAL' ? undefined : renderInline(String(v.value));
      if (!r || inline === undefined || this.text.slice(r[0], r[1]).includes('\n')) return fail('a replaced value spans lines');
      out.push({ start: r[0], end: r[1], text: inline, order: order++ });
    }

    for (const [map, added] of this.appended) {
      const live = added.filter((p) => map.items.includes(p));
      if (live.length === 0) continue;
      const lines = (list: Pair[], col: number) => list.flatMap((p) => pairLines(keyOf(p), this.plain(p.value), col, this.style));
      const before = (this.origItems.get(map) ?? []) as Pair[];
      const placed = map.flow ? [] : live.filter((p) => this.placedBefore.has(p));
      for (const p of placed) {
        const k = rangeOf(this.placedBefore.get(p)?.key)?.[0];
        if (k === undefined || !this.firstOnLine(k)) return fail('added before a key that shares its line');
        const col = columnOf(this.text, k);
        const at = this.prependPoint(k, col);
        out.push({ start: at, end: at, text: this.insertion(at, lines([p], col)), order: order++, col });
      }
      const rest = live.filter((p) => !placed.includes(p));
      if (rest.length === 0) continue;
      const render = (col: number) => lines(rest, col);
      if (map.flow) {
        if (before.length > 0) return fail('added to a flow mapping');
        const p = this.flowToBlock(map, render, order++);
        if (!p) return fail('added to a flow mapping without a key');
        out.push(p);
        continue;
      }
      const first = before[0];
      const last = before.at(-1);
      const k = first && rangeOf(first.key);
      if (!k || !last || (!this.firstOnLine(k[0]) && !this.isItemStart(k[0]))) return fail('added to a mapping without a block layout');
      const at = this.endOfLine(this.valueEnd(last));
      const col = columnOf(this.text, k[0]);
      out.push({ start: at, end: at, text: this.insertion(at, render(col)), order: order++, col });
    }

    for (const [seq, ins] of this.seqInserts) {
      const all = [...ins.start, ...ins.end];
      if (all.length === 0) continue;
      const before = this.origItems.get(seq) ?? [];
      if (seq.flow) {
        if (before.length > 0) return fail('added to a flow sequence');
        const p = this.flowToBlock(seq, (col) => itemsLines(all, col, this.style), order++);
        if (!p) return fail('added to a flow sequence without a key');
        out.push(p);
        continue;
      }
      const first = rangeOf(before[0]);
      const last = rangeOf(before[before.length - 1]);
      if (!first || !last) return fail('added to a sequence without positions');
      const dash = dashOffset(this.text, first[0]);
      if (dash < 0 || !this.firstOnLine(dash)) return fail('added to a sequence without a block layout');
      const sameLine = this.text.lastIndexOf('\n', first[0]) < dash;
      const style = { ...this.style, itemPad: isMap(before[0]) && sameLine ? first[0] - dash : this.style.itemPad };
      const col = columnOf(this.text, dash);
      if (ins.start.length > 0) {
        const at = this.prependPoint(dash, col);
        out.push({ start: at, end: at, text: this.insertion(at, itemsLines(ins.start, col, style)), order: order++, col });
      }
      if (ins.end.length > 0) {
        const at = this.endOfLine(last[1]);
        // Items are deeper than their sequence's key even when the dashes are not indented.
        out.push({ start: at, end: at, text: this.insertion(at, itemsLines(ins.end, col, style)), order: order++, col: col + 0.5 });
      }
    }

    for (const { copy, alias, keyStart } of this.dealiased) {
      const r = rangeOf(alias);
      if (!r || keyStart === undefined) return fail('an alias without a key was replaced');
      const plain = this.plain(copy);
      const keyCol = columnOf(this.text, keyStart);
      let start = r[0];
      while (start > 0 && this.text[start - 1] === ' ') start--;
      const lines = isSeq(copy) ? itemsLines(plain as unknown[], keyCol + this.style.seqIndent, this.style) : mapLinesOf(plain, keyCol + this.style.indent, this.style);
      const text = lines.length === 0 ? (isSeq(copy) ? ' []' : ' {}') : this.nl + lines.join(this.nl);
      out.push({ start, end: r[1], text, order: order++ });
    }

    // Edits inside a removed range are moot; what is left must not overlap.
    const deletions = out.filter((p) => p.end > p.start && p.text === '');
    const inside = (p: Patch, d: Patch) =>
      p.start === p.end ? d.start < p.start && p.start < d.end : d.start <= p.start && p.end <= d.end;
    const kept = out.filter((p) => !deletions.some((d) => d !== p && inside(p, d)));
    kept.sort(
      (a, b) => a.start - b.start || Number(a.end > a.start) - Number(b.end > b.start) || (b.col ?? 0) - (a.col ?? 0) || a.order - b.order,
    );
    if (kept.some((p, i) => i > 0 && p.start < (kept[i - 1]?.end ?? 0))) return fail('edits overlap');
    return kept;
  }

  /** A key that starts a sequence item's mapping (`- name: x`) may share its line with the dash. */
  private isItemStart(offset: number): boolean {
    const dash = dashOffset(this.text, offset);
    return dash >= 0 && this.firstOnLine(dash) && this.text.lastIndexOf('\n', offset) < dash;
  }

  /** Before a line (a sequence's first item, a key), and before comment lines directly above it (they belong to it). */
  private prependPoint(offset: number, col: number): number {
    let at = this.lineStart(offset);
    while (at > this.region.start) {
      const prevStart = this.lineStart(at - 1);
      const line = this.text.slice(prevStart, at);
      const indent = line.length - line.trimStart().length;
      if (!line.trimStart().startsWith('#') || indent < col) break;
      at = prevStart;
    }
    return at;
  }
}

function mapLinesOf(plain: unknown, col: number, style: BlockStyle): string[] {
  return mapLines((plain ?? {}) as Parameters<typeof mapLines>[0], col, style);
}

function isPairLike(v: unknown): boolean {
  return v instanceof Pair;
}

function renderInline(v: string): string | undefined {
  const style = scalarStyle(v);
  if (style === 'PLAIN') return v;
  if (style === 'QUOTE_DOUBLE') return JSON.stringify(v);
  return undefined;
}
