import { isSeq, type YAMLMap } from 'yaml';

/** `kind: List` (any case), whose `items` are the objects. */
export const LIST_KIND = 'list';

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
