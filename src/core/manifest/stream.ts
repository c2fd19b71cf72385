import { Document, LineCounter, isAlias, isNode, parseAllDocuments, visit, type DocumentOptions, type ParseOptions, type SchemaOptions } from 'yaml';
import { firstLine } from '../errors.js';
import { JsonLimitError, checkJsonText } from '../input/boundedJson.js';
import { yamlTextProblem } from '../input/boundedYaml.js';
import { MAX_DOCUMENT_NODES, MAX_NESTING_DEPTH, checkPlainTree, checkYamlDepth } from '../input/treeLimits.js';
import { linePosition, positionError } from './positions.js';
import { DocEditor, type DocRegion } from './editor.js';
import { DEFAULT_STYLE } from './emit.js';
import { segments, segmentsOf } from './segments.js';
import type { ManifestInput, ManifestSource } from './sources.js';
import { detectStyle } from './style.js';

/*
 * A manifest stream split into documents, each with the bytes it came from. YAML is read as YAML 1.1
 * (what kubectl's go-yaml reads: `yes` is a bool, `0777` octal) minus timestamps and base-60 numbers,
 * which go-yaml leaves as strings. JSON input (one or more concatenated values) is recognised so it
 * can be written back as JSON.
 */

export { linePosition, positionError } from './positions.js';

export type ManifestFormat = 'yaml' | 'json';

export interface ManifestDoc {
  /** 1-based position in the stream, for messages. */
  readonly index: number;
  readonly region: DocRegion;
  readonly doc: Document;
  /** False for a document with nothing but separators and blank lines (kubectl skips those). */
  readonly present: boolean;
  /** JSON input: the indentation it used (0 = compact). */
  readonly jsonIndent?: string | number;
  /** A fresh editor over this document. */
  edit(hint?: unknown): DocEditor;
}

export interface ManifestStream {
  readonly source: ManifestSource;
  readonly format: ManifestFormat;
  readonly docs: readonly ManifestDoc[];
  /**
   * One YAML document's text from inputStreams, parsed only when `docs` is first read (inject's
   * fast path reads it from the CST instead, see inject/cstPod.ts).
   */
  readonly segment?: boolean;
}

/** A stream of one segment whose documents are parsed on first use. */
export function segmentStream(source: ManifestSource): ManifestStream {
  let docs: readonly ManifestDoc[] | undefined;
  return {
    source,
    format: 'yaml',
    segment: true,
    get docs() {
      docs ??= parseYamlStream(source).docs;
      return docs;
    },
  };
}

export const YAML_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  version: '1.1',
  prettyErrors: true,
  uniqueKeys: true,
  customTags: (tags) =>
    tags.filter((t) =>
      typeof t === 'string'
        ? !['timestamp', 'intTime', 'floatTime'].includes(t)
        : !(t.tag === 'tag:yaml.org,2002:timestamp' || ('format' in t && t.format === 'TIME')),
    ),
};

const outOfStack = (e: Error) => e.message.startsWith('Maximum call stack size exceeded');

/** A parser error's reason; the parser's own stack running out is nesting past any limit we keep. */
function parseErrorReason(e: Error): string {
  if (outOfStack(e)) return `nested more than ${MAX_NESTING_DEPTH} levels deep`;
  return firstLine(e).replace(/ at line \d+, column \d+:?$/, '');
}

/** Documents kubectl would see: anything but `---` lines, `...` lines and whitespace. */
export function hasContent(text: string): boolean {
  // Most documents answer at their second line: one starting with anything but white space, `-`
  // or `.` is content (markers start with those), found without cutting the text into lines.
  if (/(?:^|\n)[^\s\-.]/.test(text)) return true;
  return text.split(/\r?\n/).some((l) => l.trim() !== '' && !/^(---|\.\.\.)(\s.*)?$/.test(l));
}

export function parseManifestStream(source: ManifestSource): ManifestStream {
  const json = parseJsonStream(source);
  if (json) return json;
  checkYamlDensity(source);
  return parseYamlStream(source);
}

/**
 * Refuses a YAML text (one document of a stream, or a whole text) denser or deeper than the tree
 * limits allow, before the parser builds anything: counted from its tokens (input/boundedYaml.ts),
 * reported at the line where the text starts.
 */
function checkYamlDensity(source: ManifestSource): void {
  const problem = yamlTextProblem(source.text);
  if (problem) throw positionError(source.name, (source.lineOffset ?? 0) + linePosition(source.text, problem.offset).line, 1, problem.reason);
}

/** Where a key repeats in one mapping (the later value is the one kept). */
export interface DuplicateKey {
  readonly key: string;
  readonly line: number;
  readonly col: number;
}

export interface YamlStreamOptions {
  /** Report repeated keys here instead of refusing the document (`linkerd analyze` lists them). */
  onDuplicateKey?: (d: DuplicateKey) => void;
}

export function parseYamlStream(source: ManifestSource, options: YamlStreamOptions = {}): ManifestStream {
  const { text, name } = source;
  const lines = source.lineOffset ?? 0;
  const lineCounter = new LineCounter();
  const parsed = parseAllDocuments(text, { ...YAML_OPTIONS, lineCounter });
  const list = Array.isArray(parsed) ? parsed : [];
  const where = (offset: number) => lineCounter.linePos(offset);
  const { onDuplicateKey } = options;
  for (const doc of list) {
    if (onDuplicateKey) {
      const dups = doc.errors.filter((e) => e.code === 'DUPLICATE_KEY');
      for (const e of dups) {
        const pos = where(e.pos[0]);
        const key = /^[^:\n]*/.exec(text.slice(e.pos[0], e.pos[0] + 200))?.[0]?.trim() ?? '';
        onDuplicateKey({ key, line: pos.line + lines, col: pos.col });
      }
      if (dups.length > 0) doc.errors = doc.errors.filter((e) => e.code !== 'DUPLICATE_KEY');
    }
    const err = doc.errors[0];
    if (err) {
      // Where the stack runs out depends on the thread and the caller, so that is reported where
      // the document starts, as the nesting limit below is (the same text on any thread).
      const pos = outOfStack(err) ? where(doc.range[0]) : (err.linePos?.[0] ?? where(err.pos[0]));
      throw positionError(name, pos.line + lines, pos.col, parseErrorReason(err));
    }
    const tooDeep = checkYamlDepth(doc);
    if (tooDeep) {
      const pos = where(doc.range[0]);
      throw positionError(name, pos.line + lines, pos.col, tooDeep.reason);
    }
    // Without a `*` in its text a document has no alias to check.
    if (text.slice(doc.range[0], doc.range[2]).includes('*'))
      checkAliases(doc, name, (o) => {
        const p = where(o);
        return { line: p.line + lines, col: p.col };
      });
  }
  const docs = list.map((doc, i): ManifestDoc => {
    const start = i === 0 ? 0 : doc.range[0];
    const end = list[i + 1]?.range[0] ?? text.length;
    const region = { start, end };
    const present = hasContent(text.slice(doc.range[0], end)) && (i > 0 || hasContent(text.slice(0, end)));
    return {
      index: i + 1,
      region,
      doc,
      present,
      edit: (hint?: unknown) => new DocEditor(doc, source, region, () => detectStyle(text, doc, isNode(hint) ? hint : undefined), true),
    };
  });
  return { source, format: 'yaml', docs };
}

/**
 * Anchors belong to one document; an alias to an anchor defined in another document (or later in
 * this one) is the classic multi-document trap, reported where the alias is.
 */
function checkAliases(doc: Document, name: string, where: (o: number) => { line: number; col: number }): void {
  const anchors = new Set<string>();
  let problem: { offset: number; source: string } | undefined;
  visit(doc, {
    Node: (_k, node) => {
      if (isAlias(node)) {
        if (!anchors.has(node.source)) {
          problem = { offset: node.range?.[0] ?? 0, source: node.source };
          return visit.BREAK;
        }
      } else if ('anchor' in node && typeof node.anchor === 'string') {
        anchors.add(node.anchor);
      }
      return undefined;
    },
  });
  if (problem) {
    const pos = where(problem.offset);
    throw positionError(name, pos.line, pos.col, `unknown anchor "${problem.source}" (anchors do not carry across "---" documents)`);
  }
}

// ---------------------------------------------------------------- JSON

/** Top-level JSON values of a text, by brace matching; undefined when it is not a JSON stream. */
function splitJsonValues(text: string): Array<[number, number]> | undefined {
  const out: Array<[number, number]> = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && /\s|\ufeff/.test(text.charAt(i))) i++;
    if (i >= n) break;
    if (text[i] !== '{' && text[i] !== '[') return undefined;
    const start = i;
    let depth = 0;
    let inString = false;
    for (; i < n; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) {
          i++;
          break;
        }
      }
    }
    if (depth !== 0) return undefined;
    out.push([start, i]);
  }
  return out.length > 0 ? out : undefined;
}

function jsonIndentOf(chunk: string): string | number {
  const indent = /\n([ \t]+)\S/.exec(chunk)?.[1];
  if (indent === undefined) return 0;
  return indent.startsWith('\t') ? '\t' : indent.length;
}

/**
 * The collection budget and nesting over the whole JSON text (input/boundedJson.ts), before
 * anything is split or parsed: a stream of a million `{}` is as dense as one list of them.
 * Reported where the budget ran out; a document with too many nodes, where it starts.
 */
function checkJsonDensity(source: ManifestSource): void {
  try {
    checkJsonText(source.text, { maxNodes: MAX_DOCUMENT_NODES });
  } catch (e) {
    if (!(e instanceof JsonLimitError)) throw e;
    const pos = linePosition(source.text, e.offset);
    throw positionError(source.name, pos.line, pos.col, e.message);
  }
}

function parseJsonStream(source: ManifestSource): ManifestStream | undefined {
  const { text } = source;
  const first = text.replace(/^[\s\ufeff]+/, '')[0];
  if (first !== '{' && first !== '[') return undefined;
  checkJsonDensity(source);
  const chunks = splitJsonValues(text);
  if (!chunks) return undefined;
  const values: unknown[] = [];
  for (const [s, e] of chunks) {
    let value: unknown;
    try {
      value = JSON.parse(text.slice(s, e));
    } catch {
      // Not JSON after all (YAML flow style); the YAML parser reports any real error.
      return undefined;
    }
    const problem = checkPlainTree(value);
    if (problem) {
      const pos = linePosition(text, s);
      throw positionError(source.name, pos.line, pos.col, problem.reason);
    }
    values.push(value);
  }
  const docs = chunks.map(([s, e], i): ManifestDoc => {
    const doc = new Document(values[i], { version: '1.1' });
    const region = { start: s, end: e };
    return {
      index: i + 1,
      region,
      doc,
      present: true,
      jsonIndent: jsonIndentOf(text.slice(s, e)),
      edit: () => new DocEditor(doc, source, region, () => DEFAULT_STYLE, false),
    };
  });
  return { source, format: 'json', docs };
}

// ---------------------------------------------------------------- streaming

/**
 * An input as a sequence of small streams, one per YAML document (see segments.ts), each parsed
 * only when it is reached, so one document at a time is in memory. A document with nothing but
 * separators and blank lines is not parsed at all; neither is one for which `wanted` (given the
 * document's text) says no — it is then passed through as it is. JSON is parsed whole.
 */
export async function* inputStreams(input: ManifestInput, wanted?: (text: string) => boolean): AsyncGenerator<ManifestStream> {
  const chunks = input.chunks()[Symbol.asyncIterator]();
  // Enough of the start to see whether this is JSON.
  let head = '';
  for (;;) {
    const next = await chunks.next();
    if (next.done) break;
    head += next.value;
    if (head.trim() !== '') break;
  }
  const rest = async function* (): AsyncGenerator<string> {
    if (head !== '') yield head;
    for (;;) {
      const next = await chunks.next();
      if (next.done) return;
      yield next.value;
    }
  };
  const lead = head.replace(/^[\s\ufeff]+/, '')[0];
  let docs: AsyncIterable<{ text: string; lineOffset: number }>;
  if (lead === '{' || lead === '[') {
    let text = '';
    for await (const c of rest()) text += c;
    const json = parseJsonStream({ name: input.name, text });
    if (json) {
      yield json;
      return;
    }
    docs = segmentsOf(text);
  } else {
    docs = segments(rest());
  }
  for await (const seg of docs) {
    const source = { name: input.name, text: seg.text, lineOffset: seg.lineOffset };
    if ((wanted && !wanted(seg.text)) || !hasContent(seg.text)) yield { source, format: 'yaml', docs: [] };
    else {
      checkYamlDensity(source);
      yield segmentStream(source);
    }
  }
}
