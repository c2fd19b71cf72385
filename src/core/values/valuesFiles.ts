import yaml from 'js-yaml';
import { LineCounter, isMap as isYamlMap, isNode, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { UserError } from '../errors.js';
import { countYamlCollections } from '../input/boundedYaml.js';
import { readTextFileBounded } from '../input/boundedRead.js';
import { loadYaml } from '../input/loadYaml.js';
import { VALUES_LIMIT } from '../input/limits.js';
import { type FetchOptions, fetchUrl, isFetchableUrl, isUrl } from '../manifest/fetchUrl.js';
import { STDIN_NAME, readAllStdin } from '../manifest/sources.js';
import { type Tree, isMap } from './tree.js';
import { redactedUrl } from '../net/redactedUrl.js';

/*
 * `-f/--values` arguments: each is a local path, a URL (as Helm's flag help says) or `-` (standard
 * input, as Helm reads it) naming one YAML map of chart values. URLs are fetched like `linkerd
 * inject` fetches them: https, or plain http from a loopback host only. Standard input can be read
 * only once, so `-f -` may be given once. Malformed YAML is reported as `FILE:LINE:COL: reason`
 * (the URL or `<stdin>` in place of FILE) so editors can jump to it.
 */

/** The `-f` argument that means standard input. */
export const STDIN_ARG = '-';

/** Reads one `-f` argument (a path or a URL); resolves to its text. */
export type ValuesReader = (pathOrUrl: string) => Promise<string> | string;

/** Reads local files, up to the values limit; `open <path>: no such file or directory` like the Go CLI. */
export const readLocalValuesFile: ValuesReader = (path) => readTextFileBounded(path, VALUES_LIMIT);

/** Fetches a values file named by URL; every failure is one line naming the URL. */
async function fetchValuesFile(url: string, opts: FetchOptions): Promise<string> {
  if (!isFetchableUrl(url)) throw new UserError(`-f ${redactedUrl(url)}: only HTTPS URLs are allowed (plain http only from localhost)`);
  return new TextDecoder('utf-8').decode(await fetchUrl(url, { ...opts, limit: VALUES_LIMIT }));
}

export interface ValuesReaderOptions extends FetchOptions {
  /** All of standard input (for `-f -`); the process's by default. */
  stdin?: () => Promise<Uint8Array>;
}

/**
 * A reader of `-f` arguments: `-` reads standard input, URLs are fetched (with `opts`), anything
 * else is read as a local file.
 */
export function valuesReader(opts: ValuesReaderOptions = {}): ValuesReader {
  const stdin = opts.stdin ?? (() => readAllStdin(VALUES_LIMIT));
  return async (arg) => {
    if (arg === STDIN_ARG) return new TextDecoder('utf-8').decode(await stdin());
    return isUrl(arg) ? fetchValuesFile(arg, opts) : readLocalValuesFile(arg);
  };
}

/** Reads a `-f` argument (a path, a URL or `-`), with the default deadline. */
export const readValuesFile: ValuesReader = valuesReader();

/** What a values file holds, said after a file that holds something else. */
export const VALUES_FILE_ACCEPTS = 'a values file is one YAML document: a map of chart values (as `helm show values` prints them)';

/**
 * Where the second document of `text` starts (its `---` line), for js-yaml's "expected a single
 * document" error, which carries no position: a `---` at the start of a line once content was seen.
 */
function secondDocumentLine(text: string): number | undefined {
  let content = false;
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    if (/^(---|\.\.\.)(\s|$)/.test(line)) {
      if (content) return i + 1;
      content = line.startsWith('---') && line.slice(3).trim() !== '' && !line.slice(3).trim().startsWith('#');
      continue;
    }
    if (line.trim() !== '' && !line.trimStart().startsWith('#') && !line.startsWith('%')) content = true;
  }
  return undefined;
}

/**
 * Parses the text of one values file; `source` names it in errors (with the line and column of a
 * YAML mistake), and `accepts` says what the flag takes. An empty file is `{}`.
 */
export function parseValuesYaml(text: string, source: string, accepts: string = VALUES_FILE_ACCEPTS): Tree {
  let doc: unknown;
  try {
    doc = loadYaml(text, source);
  } catch (e) {
    if (e instanceof yaml.YAMLException) {
      // @types/js-yaml declares `mark` always present; js-yaml leaves it out for errors without a position.
      const mark = e.mark as yaml.YAMLException['mark'] | undefined;
      const line = mark ? mark.line + 1 : /single document/.test(e.reason) ? secondDocumentLine(text) : undefined;
      const where = line === undefined ? source : `${source}:${line}:${mark ? mark.column + 1 : 1}`;
      // A file nested past the limit is refused for its depth, not for what it holds.
      throw new UserError(`${where}: ${e.reason}`, { hint: e.reason.startsWith('nesting exceeded') ? undefined : accepts });
    }
    throw e;
  }
  if (doc === undefined || doc === null) return {};
  if (!isMap(doc)) {
    throw new UserError(`${source}: a values file must contain a map of values, not ${Array.isArray(doc) ? 'a list' : 'a scalar'}`, { hint: accepts });
  }
  return doc;
}

/**
 * One parsed `-f` file; `path` (the path or URL as given, `<stdin>` for `-`) is kept to name it in
 * validation errors.
 */
export interface ValuesFile {
  readonly path: string;
  readonly values: Tree;
  /** The file's text, kept to place a validation error at its line (see valuesPosition). */
  readonly text?: string;
}

/** 1-based line and column in a values file. */
export interface ValuesPosition {
  line: number;
  col: number;
}

/** The key of `node` (a map) equal to `segment`, with its value. */
function findPair(node: Node, segment: PropertyKey): { key: Node; value: unknown } | undefined {
  if (!isYamlMap(node)) return undefined;
  for (const pair of node.items) {
    const key: unknown = pair.key;
    const name = isScalar(key) ? key.value : key;
    if (isNode(key) && String(name) === String(segment)) return { key, value: pair.value };
  }
  return undefined;
}

/**
 * Where the value at `path` sits in a values file's `text`: the key that names it (so an unknown key
 * points at itself), or a list item (none for a file past MAX_YAML_DOCUMENT_NODES); the deepest part of the path the file holds when the rest is
 * not there (a value merged from elsewhere). Parsed again with the `yaml` library, which keeps
 * source ranges, only when a message needs one: js-yaml (the reader) does not keep them.
 */
export function valuesPosition(text: string, path: readonly PropertyKey[]): ValuesPosition | undefined {
  // The `yaml` library spends ~1.5 KB a node: a file past the manifests' node limit goes without a position.
  if (countYamlCollections(text).problem !== undefined) return undefined;
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false });
  let node: unknown = doc.contents;
  let at: number | undefined;
  for (const segment of path) {
    if (!isNode(node)) break;
    if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment];
      if (isNode(node) && node.range) at = node.range[0];
      continue;
    }
    const pair = findPair(node, segment);
    if (!pair) break;
    if (pair.key.range) at = pair.key.range[0];
    node = pair.value;
  }
  if (at === undefined) return undefined;
  const { line, col } = lineCounter.linePos(at);
  return { line, col };
}

/**
 * Reads and parses each `-f` file, in order (later files override earlier ones when merged).
 * A repeated `-f -` is refused before anything is read: the second would find stdin empty.
 */
export async function readValuesFiles(paths: readonly string[], reader: ValuesReader = readValuesFile): Promise<ValuesFile[]> {
  const fromStdin = paths.filter((p) => p === STDIN_ARG).length;
  if (fromStdin > 1) throw new UserError(`-f -: standard input can be read only once, but -f - was given ${fromStdin} times`);
  const out: ValuesFile[] = [];
  for (const arg of paths) {
    const source = arg === STDIN_ARG ? STDIN_NAME : arg;
    const text = await reader(arg);
    out.push({ path: source, values: parseValuesYaml(text, source), text });
  }
  return out;
}
