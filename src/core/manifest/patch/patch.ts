import { isNode, type Pair, type Scalar, type YAMLMap, type YAMLSeq, type Node } from 'yaml';
import type { BlockStyle } from '../emit.js';
import type { FallbackReason } from './fallback.js';

/** One replacement of the text between `start` and `end` of the stream text. */
export interface Patch {
  start: number;
  end: number;
  text: string;
  order: number;
  /** Column of inserted lines: at one offset, what goes into a nested collection comes first. */
  col?: number;
  /** A replacement that supersedes every edit inside its range (as a removal does). */
  covers?: boolean;
}

/** `text` from `start` to `end` with the (arranged, non-overlapping, in order) patches applied. */
export function applyPatches(text: string, patches: readonly Patch[], start = 0, end = text.length): string {
  let out = '';
  let at = start;
  for (const p of patches) {
    out += text.slice(at, p.start) + p.text;
    at = p.end;
  }
  return out + text.slice(at, end);
}

export type Collection = YAMLMap | YAMLSeq;

export interface Tombstone {
  pair: Pair;
  index: number;
}

/** Everything the editor changed, against the original node positions: what the patchers read. */
export interface EditLog {
  readonly origItems: ReadonlyMap<Collection, readonly unknown[]>;
  readonly appended: ReadonlyMap<YAMLMap, readonly Pair[]>;
  /** New pairs placed before an existing key rather than at the end. */
  readonly placedBefore: ReadonlyMap<Pair, Pair>;
  readonly replaced: ReadonlySet<Pair<unknown, Scalar>>;
  readonly tombstones: ReadonlyMap<YAMLMap, ReadonlyMap<string, Tombstone>>;
  readonly seqInserts: ReadonlyMap<YAMLSeq, { readonly start: readonly unknown[]; readonly end: readonly unknown[] }>;
  readonly deletedItems: ReadonlySet<Node>;
  readonly parents: WeakMap<object, { map: YAMLMap; pair: Pair }>;
  /** Private copies that replaced aliases, written out in full where the alias was. */
  readonly dealiased: ReadonlyArray<{ copy: Collection; alias: Node; keyStart: number | undefined }>;
}

/** The document a patcher writes into: its layout and its values as plain data. */
export interface PatchTarget {
  readonly style: BlockStyle;
  plain(node: unknown): unknown;
}

/** What one patcher gives: its patches, or why the document must be written by the library. */
export type PatchResult = Patch[] | { fallback: FallbackReason };

export const fallback = (reason: FallbackReason): { fallback: FallbackReason } => ({ fallback: reason });

export function rangeOf(node: unknown): [number, number, number] | undefined {
  return (isNode(node) ? node.range : undefined) ?? undefined;
}

/** The offset of a node's first byte; for a key, it exists in every original pair. */
export function startOf(node: unknown): number | undefined {
  return rangeOf(node)?.[0];
}
