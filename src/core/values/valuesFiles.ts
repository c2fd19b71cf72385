import { readFile } from 'node:fs/promises';
import yaml from 'js-yaml';
import { UserError } from '../errors.js';
import { type FetchOptions, fetchUrl, isFetchableUrl, isUrl } from '../manifest/fetchUrl.js';
import { type Tree, isMap } from './tree.js';

/*
 * `-f/--values` arguments: each is a local path or a URL (as Helm's flag help says) naming one YAML
 * map of chart values. URLs are fetched like `linkerd inject` fetches them: https, or plain http
 * from a loopback host only. Malformed YAML is reported as `FILE:LINE:COL: reason` (the URL in
 * place of FILE) so editors can jump to it.
 */

/** Reads one `-f` argument (a path or a URL); resolves to its text. */
export type ValuesReader = (pathOrUrl: string) => Promise<string> | string;

/** Reads local files; `open <path>: no such file or directory` like the Go CLI. */
export const readLocalValuesFile: ValuesReader = async (path) => {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UserError(`open ${path}: no such file or directory`);
    if (code === 'EACCES') throw new UserError(`open ${path}: permission denied`);
    if (code === 'EISDIR') throw new UserError(`read ${path}: is a directory`);
    throw e;
  }
};

/** Fetches a values file named by URL; every failure is one line naming the URL. */
async function fetchValuesFile(url: string, opts: FetchOptions): Promise<string> {
  if (!isFetchableUrl(url)) throw new UserError(`-f ${url}: only HTTPS URLs are allowed (plain http only from localhost)`);
  return new TextDecoder('utf-8').decode(await fetchUrl(url, opts));
}

/** A reader of `-f` arguments: URLs are fetched (with `opts`), anything else is read as a local file. */
export function valuesReader(opts: FetchOptions = {}): ValuesReader {
  return (arg) => (isUrl(arg) ? fetchValuesFile(arg, opts) : readLocalValuesFile(arg));
}

/** Reads a `-f` argument, a path or a URL, with the default deadline. */
export const readValuesFile: ValuesReader = valuesReader();

/** Parses the text of one values file; `source` names it in errors. An empty file is `{}`. */
export function parseValuesYaml(text: string, source: string): Tree {
  let doc: unknown;
  try {
    doc = yaml.load(text, { filename: source });
  } catch (e) {
    if (e instanceof yaml.YAMLException) {
      const line = e.mark ? e.mark.line + 1 : 0;
      const col = e.mark ? e.mark.column + 1 : 0;
      throw new UserError(`${source}:${line}:${col}: ${e.reason}`);
    }
    throw e;
  }
  if (doc === undefined || doc === null) return {};
  if (!isMap(doc)) {
    throw new UserError(`${source}: a values file must contain a map of values, not ${Array.isArray(doc) ? 'a list' : 'a scalar'}`);
  }
  return doc;
}

/** One parsed `-f` file; `path` (the path or URL as given) is kept to name it in validation errors. */
export interface ValuesFile {
  readonly path: string;
  readonly values: Tree;
}

/** Reads and parses each `-f` file, in order (later files override earlier ones when merged). */
export async function readValuesFiles(
  paths: readonly string[],
  reader: ValuesReader = readValuesFile,
): Promise<ValuesFile[]> {
  const out: ValuesFile[] = [];
  for (const path of paths) out.push({ path, values: parseValuesYaml(await reader(path), path) });
  return out;
}
