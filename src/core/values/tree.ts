/*
 * Helpers over plain JSON-like trees (what YAML parses to): maps are plain objects, lists are arrays.
 * Keys come from users (values files, --set), so `__proto__` is treated as an ordinary key everywhere.
 */

export type Tree = Record<string, unknown>;

export function isMap(v: unknown): v is Tree {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Sets an own property, even for `__proto__`, without touching prototypes. */
export function setKey(obj: Tree, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

export function hasKey(obj: Tree, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

export function getKey(obj: Tree, key: string): unknown {
  return hasKey(obj, key) ? obj[key] : undefined;
}

export function deepClone<T>(v: T): T {
  if (Array.isArray(v)) return (v as unknown[]).map((x) => deepClone(x)) as T;
  if (isMap(v)) {
    const out: Tree = {};
    for (const k of Object.keys(v)) setKey(out, k, deepClone(v[k]));
    return out as T;
  }
  return v;
}

export function deepFreeze<T>(v: T): Readonly<T> {
  if (Array.isArray(v) || isMap(v)) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

/** Structural equality of JSON-like values (key order ignored). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isMap(a) && isMap(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => hasKey(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/** The value at a path of keys/indices, or undefined. */
export function getPath(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const seg of path) {
    if (Array.isArray(cur) && typeof seg === 'number') cur = cur[seg];
    else if (isMap(cur) && typeof seg === 'string') cur = getKey(cur, seg);
    else return undefined;
  }
  return cur;
}

/** `proxy.resources.cpu.limit`, `imagePullSecrets[0].name`, `nodeSelector["kubernetes.io/os"]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (typeof seg === 'string' && /^[A-Za-z0-9_-]+$/.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out === '' ? '(root)' : out;
}

/** Lists every leaf path (scalars, lists and empty maps count as leaves). */
export function leafPaths(root: unknown, prefix: string[] = []): string[][] {
  if (!isMap(root) || Object.keys(root).length === 0) return prefix.length === 0 ? [] : [prefix];
  return Object.keys(root).flatMap((k) => leafPaths(root[k], [...prefix, k]));
}

/** A JSON-ish name of a value's type, for error messages. */
export function typeName(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (isMap(v)) return 'map';
  return typeof v;
}
