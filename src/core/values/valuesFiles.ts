import { readFile } from 'node:fs/promises';
import yaml from 'js-yaml';
import { UserError } from '../errors.js';
import { type Tree, isMap } from './tree.js';

/*
 * `-f/--values` files: each is one YAML map of chart values. Malformed YAML is reported as
 * `FILE:LINE:COL: reason` so editors can jump to it.
 */

/** Reads one `-f` argument (a path, or later a URL); resolves to its text. */
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

/** One parsed `-f` file; `path` is kept to name it in validation errors. */
export interface ValuesFile {
  readonly path: string;
  readonly values: Tree;
}

/** Reads and parses each `-f` file, in order (later files override earlier ones when merged). */
export async function readValuesFiles(
  paths: readonly string[],
  reader: ValuesReader = readLocalValuesFile,
): Promise<ValuesFile[]> {
  const out: ValuesFile[] = [];
  for (const path of paths) out.push({ path, values: parseValuesYaml(await reader(path), path) });
  return out;
}
