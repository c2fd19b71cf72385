import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import type { DocEditor } from '../manifest/editor.js';
import { linePosition, positionError, type ManifestDoc } from '../manifest/stream.js';
import { objectNodes } from '../manifest/objectNodes.js';

function describe(node: unknown): string {
  return isSeq(node) ? 'a sequence' : isScalar(node) ? 'a scalar' : 'something else';
}

const isEmpty = (node: unknown) => node === null || (isScalar(node) && node.value === null);

/**
 * The Kubernetes objects of a document: its root, or the items of a `kind: List` (undefined for an
 * empty item). Undefined for a
 * document holding nothing (only comments): it is reported as missing its kind. Anything that is not
 * a mapping cannot be a Kubernetes object and is an error at its position, as kubectl would say.
 */
export function documentObjects(
  ed: DocEditor,
  d: ManifestDoc,
  source: { name: string; text: string; lineOffset?: number },
): Array<YAMLMap | undefined> | undefined {
  const contents = d.doc.contents;
  if (isEmpty(contents)) return undefined;
  const fail = (node: unknown): never => {
    const offset = (node as { range?: [number, number, number] }).range?.[0] ?? d.region.start;
    const pos = linePosition(source.text, offset);
    throw positionError(source.name, pos.line + (source.lineOffset ?? 0), pos.col, `expected a Kubernetes object (a mapping), found ${describe(node)}`);
  };
  if (!isMap(contents)) return fail(contents);
  const nodes = objectNodes(contents, { kind: (m) => ed.getString(m, 'kind'), items: (m) => ed.getSeq(m, 'items')?.items });
  // An empty List item (`- null`, a bare `-`) is kept as it is and reported as missing its kind, as linkerd does.
  return nodes.map((node) => (isMap(node) ? node : isEmpty(node) ? undefined : fail(node)));
}
