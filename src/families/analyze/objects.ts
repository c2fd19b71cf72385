import { isMap, isSeq, type Node } from 'yaml';
import { linePosition } from '../../core/manifest/positions.js';

/*
 * An object of the input as the analyzer sees it: plain data plus where it came from, so a finding
 * can name the line of the field it is about. Lines are found only when a finding needs one.
 */

export type Path = ReadonlyArray<string | number>;

export interface Origin {
  readonly file: string;
  /** The line of `path` in the object (the nearest field that exists), or of the object. */
  line(path?: Path): number;
}

export interface InputObject {
  readonly apiVersion: string;
  /** The API group (`''` for core) and version of `apiVersion`. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly name: string;
  /** The object's namespace, or the default one (`-n`, else `default`) for a namespaced kind. */
  readonly namespace: string;
  readonly body: Record<string, unknown>;
  readonly origin: Origin;
}

/** An object read from a YAML document: lines come from the node ranges of its text. */
export function yamlOrigin(file: string, text: string, lineOffset: number, node: unknown): Origin {
  return {
    file,
    line(path: Path = []) {
      let at = node as Node | undefined;
      for (const key of path) {
        const next: unknown = isMap(at) ? at.get(key, true) : isSeq(at) && typeof key === 'number' ? at.get(key, true) : undefined;
        if (next === undefined || next === null) break;
        at = next as Node;
      }
      // A scalar's line is its key's line too (`port: http`), which is what a reader looks for.
      const offset = at?.range?.[0] ?? 0;
      return linePosition(text, offset).line + lineOffset;
    },
  };
}

/** An object without node positions (JSON input): every finding points at the object's first line. */
export function fixedOrigin(file: string, line: number): Origin {
  return { file, line: () => line };
}

export const CLUSTER_FILE = '<cluster>';

export const CLUSTER_ORIGIN: Origin = { file: CLUSTER_FILE, line: () => 0 };

/** `policy.linkerd.io/v1beta3` → group and version. */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

const CLUSTER_SCOPED = new Set(['Namespace', 'Node', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'PersistentVolume', 'StorageClass']);

/** The analyzed form of a plain object, or undefined when it has no kind (nothing to analyze). */
export function inputObject(body: unknown, origin: Origin, defaultNamespace: string): InputObject | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const obj = body as Record<string, unknown>;
  if (typeof obj.kind !== 'string' || obj.kind === '') return undefined;
  const meta = record(obj.metadata);
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const name = str(meta.name) ?? str(meta.generateName) ?? '';
  const namespace = CLUSTER_SCOPED.has(obj.kind) ? '' : (str(meta.namespace) ?? defaultNamespace);
  return { apiVersion, ...splitApiVersion(apiVersion), kind: obj.kind, name, namespace, body: obj, origin };
}

// ---------------------------------------------------------------- plain-data readers

export function record(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

export function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** String-valued entries of a map (labels, annotations); other values are dropped. */
export function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(record(v))) if (typeof val === 'string') out[k] = val;
  return out;
}
