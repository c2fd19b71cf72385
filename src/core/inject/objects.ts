import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import type { DocEditor } from '../manifest/editor.js';
import { linePosition, positionError, type ManifestDoc } from '../manifest/stream.js';
import { LIST_KIND } from './kinds.js';

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
  if (contents === null || contents === undefined || (isScalar(contents) && contents.value === null)) return undefined;
  const fail = (node: unknown): never => {
    const offset = (node as { range?: [number, number, number] }).range?.[0] ?? d.region.start;
    const pos = linePosition(source.text, offset);
    throw positionError(source.name, pos.line + (source.lineOffset ?? 0), pos.col, `expected a Kubernetes object (a mapping), found ${describe(node)}`);
  };
  if (!isMap(contents)) return fail(contents);
  if ((ed.getString(contents, 'kind') ?? '').toLowerCase() !== LIST_KIND) return [contents];
  const items = ed.getSeq(contents, 'items');
  if (!items) return [];
  for (const item of items.items) if (!isMap(item)) fail(item);
  return items.items as YAMLMap[];
}
