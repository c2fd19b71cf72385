import { LINKERD_VERSION } from '../version.js';
import { defaultValues } from './defaults.js';
import { mergeValues } from './merge.js';
import { type Values, ValuesSchema } from './schema.js';
import { formatIssues } from './validateValues.js';
import { type Tree, deepClone, deepEqual, formatPath, getKey, hasKey, isMap, setKey } from './tree.js';
import { UserError } from '../errors.js';

/*
 * The values as stored in the cluster: ConfigMap `linkerd-config` (key `values`, read by the proxy
 * injector and by `inject`/`check`) and Secret `linkerd-config-overrides` (read by `upgrade`/`prune`).
 */

/** Secrets that must never reach the world-readable ConfigMap. */
const PRIVATE_PATHS: readonly (readonly string[])[] = [
  ['identity', 'issuer', 'tls', 'keyPEM'],
  ['identity', 'issuer', 'tls', 'keyPEM64'],
  ['proxyInjector', 'keyPEM'],
  ['profileValidator', 'keyPEM'],
  ['policyValidator', 'keyPEM'],
];

function deletePath(root: Tree, path: readonly string[]): void {
  let cur: unknown = root;
  for (const seg of path.slice(0, -1)) {
    cur = isMap(cur) ? getKey(cur, seg) : undefined;
  }
  const last = path.at(-1);
  if (isMap(cur) && last !== undefined) delete cur[last];
}

/**
 * The `values` of ConfigMap linkerd-config, like the chart's config.yaml: private keys removed and an
 * empty identityTrustDomain defaulted to clusterDomain. Certificates (crtPEM, caBundle) are public and
 * stay, as in linkerd's rendering.
 */
export function linkerdConfigValues(values: Values): Tree {
  const out = deepClone(values) as unknown as Tree;
  for (const path of PRIVATE_PATHS) deletePath(out, path);
  if (out.identityTrustDomain === '' || out.identityTrustDomain === undefined) {
    out.identityTrustDomain = values.clusterDomain;
  }
  return out;
}

/**
 * The part of `final` that differs from `defaults` (linkerd's tree.Diff, the content of Secret
 * linkerd-config-overrides): changed leaves only, lists compared whole, unchanged maps omitted.
 * Keys of `defaults` missing from `final` appear as null so that
 * `mergeValues(defaults, overridesDiff(defaults, final))` reproduces `final` exactly.
 */
export function overridesDiff(defaults: object, final: object): Tree {
  const base = defaults as Tree;
  const next = final as Tree;
  const diff: Tree = {};
  for (const k of Object.keys(next)) {
    const v = next[k];
    if (!hasKey(base, k)) {
      setKey(diff, k, deepClone(v));
      continue;
    }
    const d = base[k];
    if (isMap(d) && isMap(v)) {
      const sub = overridesDiff(d, v);
      if (Object.keys(sub).length > 0) setKey(diff, k, sub);
    } else if (!deepEqual(d, v)) {
      setKey(diff, k, deepClone(v));
    }
  }
  for (const k of Object.keys(base)) {
    if (!hasKey(next, k)) setKey(diff, k, null);
  }
  return diff;
}

export interface ClusterValues {
  values: Values;
  /** Dotted paths of keys this CLI does not know (a newer or older control plane); dropped. */
  unknownKeys: string[];
  /** Dotted paths whose stored value had the wrong type; replaced by this release's default. */
  invalidKeys: string[];
}

/**
 * Reads linkerd-config values leniently: unknown keys are stripped (and listed), nulls count as absent,
 * keys this release has but the cluster lacks take this release's defaults, and wrongly typed known
 * keys fall back to the default (listed in invalidKeys). Throws only when the result still fails.
 */
export function parseClusterValues(obj: unknown, source: string): ClusterValues {
  if (!isMap(obj)) throw new UserError(`${source}: expected a map of values`);
  const version = typeof obj.linkerdVersion === 'string' && obj.linkerdVersion !== '' ? obj.linkerdVersion : LINKERD_VERSION;
  const defaults = defaultValues(version) as unknown as Tree;
  const candidate = mergeValues(defaults, obj);
  const unknownKeys: string[] = [];
  const invalidKeys: string[] = [];
  // Each pass removes what zod reported; nested unknowns surface once their parent parses.
  for (let pass = 0; pass < 32; pass++) {
    const result = ValuesSchema.safeParse(candidate);
    if (result.success) return { values: result.data, unknownKeys, invalidKeys };
    let repaired = false;
    for (const issue of result.error.issues) {
      const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          unknownKeys.push(formatPath([...path, key]));
          repaired = removeAt(candidate, [...path, key]) || repaired;
        }
      } else if (path.length > 0) {
        invalidKeys.push(formatPath(path));
        repaired = resetAt(candidate, defaults, path) || repaired;
      }
    }
    if (!repaired) throw new UserError(formatIssues(result.error.issues, candidate, source));
  }
  throw new UserError(`${source}: values could not be repaired`);
}

function parentOf(root: unknown, path: readonly (string | number)[]): unknown {
  let cur = root;
  for (const seg of path.slice(0, -1)) {
    if (Array.isArray(cur) && typeof seg === 'number') cur = cur[seg];
    else if (isMap(cur) && typeof seg === 'string') cur = getKey(cur, seg);
    else return undefined;
  }
  return cur;
}

function removeAt(root: Tree, path: readonly (string | number)[]): boolean {
  const parent = parentOf(root, path);
  const key = path[path.length - 1];
  if (isMap(parent) && typeof key === 'string' && hasKey(parent, key)) {
    delete parent[key];
    return true;
  }
  return false;
}

/** Puts the default back at `path` (or removes the value when there is no default). */
function resetAt(root: Tree, defaults: Tree, path: readonly (string | number)[]): boolean {
  const parent = parentOf(root, path);
  const key = path[path.length - 1];
  const fallback = parentOf(defaults, path);
  if (Array.isArray(parent) && typeof key === 'number') {
    parent.splice(key, 1);
    return true;
  }
  if (!isMap(parent) || typeof key !== 'string') return false;
  const def = isMap(fallback) ? getKey(fallback, key) : undefined;
  if (def === undefined) {
    if (!hasKey(parent, key)) return false;
    delete parent[key];
  } else {
    if (deepEqual(getKey(parent, key), def)) return false;
    setKey(parent, key, deepClone(def));
  }
  return true;
}
