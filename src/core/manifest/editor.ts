import { Pair, Scalar, YAMLMap, YAMLSeq, isAlias, isMap, isNode, isScalar, isSeq, visit, type Document, type Node } from 'yaml';
import type { BlockStyle } from './emit.js';
import { isMergePair, keyOf } from './keys.js';
import { scalarStyle } from './scalars.js';
import { UserError } from '../errors.js';
import { deepEqual } from '../values/tree.js';
import { comparable, toPlain } from './positions.js';
import type { ManifestSource } from './sources.js';
import { arrange } from './patch/arrange.js';
import { dealiased } from './patch/dealiased.js';
import { FALLBACK, hadNoValue, type FallbackReason } from './patch/fallback.js';
import { TextLayout } from './patch/layout.js';
import { mapAdditions } from './patch/mapAdditions.js';
import { applyPatches, rangeOf, type Collection, type EditLog, type Patch, type PatchResult, type Tombstone } from './patch/patch.js';
import { removedItems, removedKeys } from './patch/removals.js';
import { replacedScalars } from './patch/replacements.js';
import { libraryText } from './patch/library.js';
import { realiased } from './patch/realiased.js';
import { seqAdditions } from './patch/seqAdditions.js';

export { isMergePair, keyOf } from './keys.js';
export { FALLBACK } from './patch/fallback.js';
export type { FallbackReason } from './patch/fallback.js';

/*
 * Edits one parsed document through the yaml Document API and writes the result back as the user's
 * own text with only the edited lines changed.
 *
 * Every operation changes the Document (so reads, toJS and JSON output see the new state) and is
 * remembered against the original node positions (the EditLog). When the document is written, one
 * patcher per kind of edit (patch/*.ts) turns them into text patches: added lines rendered in the
 * document's own layout, removed lines cut out, replaced scalars swapped in place. Everything else —
 * comments, quoting, anchors, blank lines, odd spacing — stays byte for byte. Shapes a patch cannot
 * express safely (patch/fallback.ts names each) make the document fall back to the yaml library's
 * own stringifier, which still keeps comments, order, quoting and anchors.
 */

export interface DocRegion {
  /** Offset of the document's first byte in the stream text (its `---`, or 0 for the first). */
  start: number;
  /** Offset just past its last byte (the next document's `---`, or the end of the text). */
  end: number;
}

/** A document that is not the shape Kubernetes needs where we must edit (e.g. `annotations: "x"`). */
export class ManifestShapeError extends UserError {}

/** A scalar node styled like the lines we emit (used when the library stringifies). */
function scalarNode(value: string): Scalar {
  const s = new Scalar(value);
  s.type = scalarStyle(value);
  return s;
}

export class DocEditor implements EditLog {
  /** True once any operation changed the document. */
  changed = false;
  private fallbackReason: FallbackReason | undefined;
  private readonly nl: string;
  readonly origItems = new Map<Collection, unknown[]>();
  readonly appended = new Map<YAMLMap, Pair[]>();
  readonly placedBefore = new Map<Pair, Pair>();
  readonly replaced = new Set<Pair<unknown, Scalar>>();
  readonly tombstones = new Map<YAMLMap, Map<string, Tombstone>>();
  readonly seqInserts = new Map<YAMLSeq, { start: unknown[]; end: unknown[] }>();
  readonly deletedItems = new Set<Node>();
  readonly parents = new WeakMap<object, { map: YAMLMap; pair: Pair }>();
  readonly dealiased: Array<{ copy: Collection; alias: Node; keyStart: number | undefined }> = [];
  /** The document as plain data before the first change. */
  private before: unknown;
  private snapshotted = false;
  /** Something was added before the snapshot: the edits cannot cancel out. */
  private addedFirst = false;

  private readonly text: string;

  constructor(
    readonly doc: Document,
    /** The text the document was parsed from, its name and line offset (for errors). */
    private readonly source: ManifestSource,
    readonly region: DocRegion,
    /** The document's layout, measured only when lines must be written. */
    private readonly styleOf: () => BlockStyle,
    /** False for documents without source positions (JSON input): only the model is edited. */
    private readonly positional = true,
  ) {
    this.text = source.text;
    this.nl = this.text.slice(region.start, region.end).includes('\r\n') ? '\r\n' : '\n';
  }

  private styleMemo: BlockStyle | undefined;

  get style(): BlockStyle {
    this.styleMemo ??= this.styleOf();
    return this.styleMemo;
  }

  /** Why the document must be re-stringified by the library, if it must. */
  get fallback(): FallbackReason | undefined {
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

  private where(node?: unknown): { name: string; text: string; offset: number; lineOffset?: number } {
    return { name: this.source.name, text: this.text, offset: rangeOf(node)?.[0] ?? this.region.start, lineOffset: this.source.lineOffset };
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
    return typeof v.value === 'string' || typeof v.value === 'number' || typeof v.value === 'boolean' || typeof v.value === 'bigint'
      ? String(v.value)
      : undefined;
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
    const text = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : JSON.stringify(v));
    // Keys merged in (`<<: *labels`) first: the mapping's own keys win over them.
    for (const p of m.items) {
      const merged = isMergePair(p) ? this.plain(p.value) : undefined;
      if (merged && typeof merged === 'object' && !Array.isArray(merged)) for (const [k, v] of Object.entries(merged)) out[k] = text(v);
    }
    for (const p of m.items) if (!isMergePair(p)) out[keyOf(p)] = text(this.plain(p.value));
    return out;
  }

  // ---------------------------------------------------------------- editing

  private original(node: unknown): boolean {
    return this.positional && rangeOf(node) !== undefined;
  }

  private fail(reason: FallbackReason): void {
    this.fallbackReason ??= reason;
  }

  /** Snapshot the items of a collection before its first change, and protect anchored ones. */
  /**
   * Taken before the first removal or replacement: only those can be undone by later additions (a
   * re-injection), and only then is the comparison in unchanged() worth its cost.
   */
  private snapshot(): void {
    if (this.snapshotted) return;
    this.before = comparable(this.doc);
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
        if (node.source === anchor) this.fail(FALLBACK.anchorUsedAsItemOrKey);
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

  private ensureCollection<C extends Collection>(parent: YAMLMap, key: string, make: () => C, is: (v: unknown) => v is C, what: string, beforeKey?: string): C {
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
      this.fail(hadNoValue(key));
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

  /**
   * Like ensureMap, for a map of strings (labels, annotations) about to get new keys. An alias
   * stays an alias: the keys go beside it under a merge key (`<<: *labels`), so the anchor is not
   * expanded, and removing them again gives back the alias (see patch/realiased.ts).
   */
  ensureStringMap(parent: YAMLMap, key: string, before?: string): YAMLMap {
    const pair = this.findPair(parent, key);
    const alias = pair?.value;
    if (!pair || !isAlias(alias) || !isMap(alias.resolve(this.doc)) || !this.original(pair.key)) return this.ensureMap(parent, key, before);
    this.snapshot();
    const merged = new YAMLMap();
    merged.items.push(new Pair(new Scalar('<<'), alias));
    pair.value = merged;
    this.dealiased.push({ copy: merged, alias, keyStart: rangeOf(pair.key)?.[0] });
    this.parents.set(merged, { map: parent, pair });
    this.changed = true;
    return merged;
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
      // A value with a position is in the text, and so is its key.
      this.replaced.add(pair as Pair<unknown, Scalar>);
      return;
    }
    pair.value = scalarNode(value);
    if (this.original(pair.key)) this.fail(FALLBACK.nonScalarReplaced);
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
      if (list)
        this.appended.set(
          map,
          list.filter((p) => p !== pair),
        );
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
    return !this.changed || (this.snapshotted && !this.addedFirst && deepEqual(this.before, comparable(this.doc)));
  }

  /** The new text of the document's region. */
  render(): string {
    const original = this.text.slice(this.region.start, this.region.end);
    if (this.unchanged()) return original;
    const patches = this.fallbackReason ? undefined : this.patches();
    if (patches) return applyPatches(this.text, patches, this.region.start, this.region.end);
    return this.libraryText();
  }

  /** The document as the yaml library writes it, in the document's indentation. */
  libraryText(): string {
    const edited: Collection[] = [...this.origItems.keys(), ...this.dealiased.map((d) => d.copy)];
    return libraryText(this.doc, {
      region: this.text.slice(this.region.start, this.region.end),
      style: this.style,
      nl: this.nl,
      edited,
      parents: this.parents,
    });
  }

  private patches(): Patch[] | undefined {
    const layout = new TextLayout(this.text, this.nl, this.region.start);
    let n = 0;
    const order = () => n++;
    const all: Patch[] = [];
    const steps: Array<() => PatchResult> = [
      () => removedKeys(this, layout, order),
      () => removedItems(this, layout, order),
      () => replacedScalars(this, layout, order),
      () => mapAdditions(this, this, layout, order),
      () => seqAdditions(this, this, layout, order),
      () => dealiased(this, this, layout, order),
      () => realiased(this, layout, order),
    ];
    for (const step of steps) {
      const r = step();
      if (!Array.isArray(r)) {
        this.fail(r.fallback);
        return undefined;
      }
      all.push(...r);
    }
    const arranged = arrange(all);
    if (Array.isArray(arranged)) return arranged;
    this.fail(arranged.fallback);
    return undefined;
  }
}
