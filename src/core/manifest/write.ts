import { Document } from 'yaml';
import type { DocEditor } from './editor.js';
import { toPlain } from './positions.js';
import type { ManifestDoc, ManifestFormat, ManifestStream } from './stream.js';

/*
 * Writing a processed stream back. By default a stream keeps its format: YAML documents keep every
 * byte outside the edited lines (untouched documents are copied verbatim), JSON stays JSON in its
 * own indentation. `-o json` / `-o yaml` convert, the way linkerd's `-o` does (one compact JSON
 * object per line; YAML documents each followed by `---`).
 */

export type OutputFormat = 'auto' | ManifestFormat;

export interface StreamOutput {
  text: string;
  format: ManifestFormat;
}

/**
 * YAML values JSON has no type for, written as Kubernetes and go-yaml read them: `!!binary` as its
 * base64 text (what a Secret's `data` holds), `!!set` as a mapping to nulls, `!!omap`/`!!pairs`
 * as a mapping in their order.
 */
function jsonValue(this: unknown, key: string, value: unknown): unknown {
  const raw = (this as Record<string, unknown>)[key];
  if (raw instanceof Uint8Array) return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64');
  if (raw instanceof Set) return Object.fromEntries([...(raw as Set<unknown>)].map((k) => [String(k), null]));
  if (raw instanceof Map) return Object.fromEntries([...(raw as Map<unknown, unknown>)].map(([k, v]) => [String(k), v]));
  return value;
}

export function toJson(value: unknown, indent: string | number = 0): string {
  return JSON.stringify(value, jsonValue, indent);
}

function plainOf(d: ManifestDoc, stream: ManifestStream): unknown {
  return toPlain(d.doc, { ...stream.source, offset: d.region.start });
}

export function renderStream(stream: ManifestStream, editors: ReadonlyArray<DocEditor | undefined>, format: OutputFormat): StreamOutput {
  const target = format === 'auto' ? stream.format : format;
  const text = stream.source.text;
  if (target === stream.format) {
    const parts: string[] = [];
    let at = 0;
    stream.docs.forEach((d, i) => {
      const ed = editors[i];
      parts.push(text.slice(at, d.region.start));
      at = d.region.end;
      if (!ed || ed.unchanged()) parts.push(text.slice(d.region.start, d.region.end));
      else if (stream.format === 'yaml') parts.push(ed.render());
      else parts.push(toJson(plainOf(d, stream), d.jsonIndent ?? 0));
    });
    parts.push(text.slice(at));
    return { text: parts.join(''), format: target };
  }
  const present = stream.docs.filter((d) => d.present && d.doc.contents !== null);
  if (target === 'json') {
    return { text: present.map((d) => `${toJson(plainOf(d, stream))}\n`).join(''), format: target };
  }
  const yaml = present.map((d) => new Document(plainOf(d, stream)).toString({ lineWidth: 0, indentSeq: false }) + '---\n');
  return { text: yaml.join(''), format: target };
}
