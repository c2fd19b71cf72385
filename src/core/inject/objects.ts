import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import type { DocEditor } from '../manifest/editor.js';
import { linePosition, positionError, type ManifestDoc } from '../manifest/stream.js';
import { LIST_KIND } from './kinds.js';

/** How a walk reads a mapping's `kind` and `items`: through a DocEditor, or the plain node API. */
export interface ObjectReader {
  kind(map: YAMLMap): string | undefined;
  items(map: YAMLMap): readonly unknown[] | undefined;
}

/** Reads without an editor (nothing is tracked for later edits; aliases are not followed). */
export const PLAIN_READER: ObjectReader = {
  kind: (map) => {
    const kind = map.get('kind');
    if (kind === undefined || kind === null) return undefined;
    return typeof kind === 'string' || typeof kind === 'number' || typeof kind === 'boolean' ? String(kind) : JSON.stringify(kind);
  },
  items: (map) => {
    const items = map.get('items');
    return isSeq(items) ? items.items : undefined;
  },
};

/** The nodes a root mapping holds objects in: the `items` of a `kind: List` (any case), else the root itself. */
export function objectNodes(root: YAMLMap, read: ObjectReader = PLAIN_READER): readonly unknown[] {
  if ((read.kind(root) ?? '').toLowerCase() !== LIST_KIND) return [root];
  return read.items(root) ?? [];
}

function describe(node: unknown): string {
  return isSeq(node) ? 'a sequence' : isScalar(node) ? 'a scalar' : 'something else';
}

/**
 * The Kubernetes objects of a document: its root, or the items of a `kind: List`. Undefined for a
 * document holding nothing (only comments): it is reported as missing its kind. Anything that is not
 * a mapping cannot be a Kubernetes object and is an error at its position, as kubectl would say.
 */
export function documentObjects(ed: DocEditor, d: ManifestDoc, source: { name: string; text: string; lineOffset?: number }): YAMLMap[] | undefined {
  const contents = d.doc.contents;
  if (contents === null || (isScalar(contents) && contents.value === null)) return undefined;
  const fail = (node: unknown): never => {
    const offset = (node as { range?: [number, number, number] }).range?.[0] ?? d.region.start;
    const pos = linePosition(source.text, offset);
    throw positionError(source.name, pos.line + (source.lineOffset ?? 0), pos.col, `expected a Kubernetes object (a mapping), found ${describe(node)}`);
  };
  if (!isMap(contents)) return fail(contents);
  const nodes = objectNodes(contents, { kind: (m) => ed.getString(m, 'kind'), items: (m) => ed.getSeq(m, 'items')?.items });
  return nodes.map((node) => (isMap(node) ? node : fail(node)));
}
