import { isMap, isSeq } from 'yaml';
import { toPlain } from '../../core/manifest/positions.js';
import { inputStreams, parseYamlStream, linePosition, type DuplicateKey, type ManifestStream } from '../../core/manifest/stream.js';
import { listManifestInputs, type SkippedEntry, type SourceReaders } from '../../core/manifest/sources.js';
import { fixedOrigin, inputObject, yamlOrigin, type InputObject } from './objects.js';

/*
 * The inputs of `linkerd analyze`, read as inject reads them (manifest/sources.ts: files,
 * directories, URLs, stdin, bounded; manifest/stream.ts: one YAML document at a time, JSON, the
 * same limits), into analyzable objects. `kind: List` items are objects of their own. A key that
 * repeats in one mapping is not a refusal here but a finding, on the object it is in.
 */

export interface RepeatedKey extends DuplicateKey {
  readonly file: string;
  /** The object the key is in (undefined when the document has no object). */
  readonly object: InputObject | undefined;
}

export interface ReadResult {
  readonly objects: InputObject[];
  readonly repeatedKeys: RepeatedKey[];
  readonly skipped: SkippedEntry[];
}

const isList = (kind: unknown) => typeof kind === 'string' && kind.toLowerCase() === 'list';

/** The objects of one parsed stream, in order. */
function streamObjects(stream: ManifestStream, defaultNamespace: string, duplicates: DuplicateKey[], out: ReadResult): void {
  const { source } = stream;
  const lineOffset = source.lineOffset ?? 0;
  for (const d of stream.docs) {
    if (!d.present) continue;
    const plain = toPlain(d.doc, { name: source.name, text: source.text, offset: d.region.start, lineOffset });
    const root = d.doc.contents;
    const json = stream.format === 'json';
    const docLine = linePosition(source.text, d.region.start).line + lineOffset;
    const objs: InputObject[] = [];
    const add = (body: unknown, node: unknown) => {
      const origin = json ? fixedOrigin(source.name, docLine) : yamlOrigin(source.name, source.text, lineOffset, node);
      const o = inputObject(body, origin, defaultNamespace);
      if (o) objs.push(o);
    };
    const body = plain as Record<string, unknown> | null;
    if (body && typeof body === 'object' && isList(body.kind) && Array.isArray(body.items)) {
      const items = isMap(root) ? root.get('items', true) : undefined;
      body.items.forEach((item, i) => add(item, isSeq(items) ? items.items[i] : undefined));
    } else {
      add(plain, root);
    }
    out.objects.push(...objs);
    for (const dup of duplicates.splice(0)) {
      // The object a repeated key is in: the last one starting at or above its line.
      const object = objs.filter((o) => o.origin.line() <= dup.line).pop() ?? objs[0];
      out.repeatedKeys.push({ ...dup, file: source.name, object });
    }
  }
  duplicates.length = 0;
}

/** Every object of the named inputs. `defaultNamespace` is given to objects without a namespace. */
export async function readInputs(args: readonly string[], defaultNamespace: string, readers: SourceReaders = {}): Promise<ReadResult> {
  const { inputs, skipped } = await listManifestInputs(args, readers);
  const out: ReadResult = { objects: [], repeatedKeys: [], skipped };
  const duplicates: DuplicateKey[] = [];
  for (const input of inputs) {
    for await (const stream of inputStreams(input)) {
      const parsed = stream.segment ? parseYamlStream(stream.source, { onDuplicateKey: (d) => duplicates.push(d) }) : stream;
      streamObjects(parsed, defaultNamespace, duplicates, out);
    }
  }
  return out;
}
