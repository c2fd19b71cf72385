import { type ReadFile, parseSetArgs } from './setArgs.js';
import type { ValuesFile } from './valuesFiles.js';
import { type Tree, deepClone, getKey, hasKey, isMap, setKey } from './tree.js';

/*
 * Helm-compatible merging of values trees.
 *
 * Precedence, lowest first (what `linkerd install/upgrade` does):
 *   1. chart defaults (defaultValues), or on upgrade defaults + the stored linkerd-config-overrides
 *   2. explicitly set flags, in flag-table order; `--ha` merges the HA overlay when it is applied,
 *      before the replica/resource flags that follow it in the table, so they override HA values
 *   3. `-f` files in order (later files win)
 *   4. `--set`, then `--set-string`, then `--set-file` (each list in command-line order)
 * Layers 3–4 form one "overrides" map exactly like Helm's values.Options.MergeValues, and that map is
 * coalesced onto the flag-applied typed values, like linkerd renders the chart with the overrides.
 *
 * Semantics: maps merge key by key, recursively; lists and scalars replace; `null` deletes the key
 * from the layers below (Helm's coalesce). Inputs are never mutated.
 */

export { parseSetArgs, typedSetValue, overridesHave } from './setArgs.js';
export type { ReadFile, SetKind } from './setArgs.js';
export { readValuesFiles, parseValuesYaml, readLocalValuesFile } from './valuesFiles.js';
export type { ValuesReader, ValuesFile } from './valuesFiles.js';
export { validateValues, formatIssues } from './validateValues.js';

/** A copy of `v` with every null map entry removed (deleting a key that was never there). */
function withoutNulls(v: unknown): unknown {
  if (Array.isArray(v)) return (v as unknown[]).map((x) => deepClone(x));
  if (!isMap(v)) return v;
  const out: Tree = {};
  for (const k of Object.keys(v)) {
    if (v[k] !== null) setKey(out, k, withoutNulls(v[k]));
  }
  return out;
}

/** Coalesces one overlay onto base: null deletes, maps recurse, everything else replaces. */
function coalesce(base: Tree, overlay: Tree): Tree {
  const out = deepClone(base);
  for (const k of Object.keys(overlay)) {
    const over = overlay[k];
    const under = getKey(out, k);
    if (over === null) {
      delete out[k];
    } else if (isMap(over) && isMap(under)) {
      setKey(out, k, coalesce(under, over));
    } else {
      setKey(out, k, withoutNulls(over));
    }
  }
  return out;
}

/**
 * Combines overlays into one, later winning (Helm's mergeMaps between `-f` files). Nulls are kept
 * as deletion markers for the final coalesce onto the base.
 */
export function combineOverlays(...overlays: readonly Tree[]): Tree {
  let out: Tree = {};
  for (const overlay of overlays) {
    const next = deepClone(out);
    for (const k of Object.keys(overlay)) {
      const over = overlay[k];
      const under = getKey(next, k);
      setKey(next, k, isMap(over) && isMap(under) ? combineOverlays(under, over) : deepClone(over));
    }
    out = next;
  }
  return out;
}

/**
 * Merges overlays onto base with Helm semantics. Several overlays are first combined among
 * themselves (like several `-f` files), then coalesced onto base.
 */
export function mergeValues(base: object, ...overlays: readonly object[]): Tree {
  if (overlays.length === 0) return deepClone(base as Tree);
  return coalesce(base as Tree, combineOverlays(...(overlays as Tree[])));
}

/**
 * Go's mergo-style merge used for `--ha`: overlay values win where they are non-empty; empty
 * strings in the overlay only fill keys the base lacks (so an upgrade keeps a custom limit).
 */
export function mergeNonEmpty(base: object, overlay: object): Tree {
  const out = deepClone(base as Tree);
  for (const [k, over] of Object.entries(overlay)) {
    const under = getKey(out, k);
    if (isMap(over) && isMap(under)) setKey(out, k, mergeNonEmpty(under, over));
    else if (over === '' || over === undefined) {
      if (!hasKey(out, k)) setKey(out, k, over);
    } else setKey(out, k, deepClone(over));
  }
  return out;
}

export interface OverrideSources {
  /** Parsed `-f` files, in command-line order. */
  valuesFiles?: readonly ValuesFile[];
  set?: readonly string[];
  setString?: readonly string[];
  setFile?: readonly string[];
  /** Reads `--set-file` paths. */
  readFile?: ReadFile;
}

/**
 * The user's overrides map (Helm's values.Options.MergeValues): `-f` files combined in order, then
 * `--set`, `--set-string` and `--set-file` parsed into that map (so list indices address lists from
 * the files). Null entries are kept: they delete keys when the map is coalesced onto the values.
 */
export function buildOverrides(src: OverrideSources): Tree {
  const base = combineOverlays(...(src.valuesFiles ?? []).map((f) => f.values));
  parseSetArgs('set', src.set ?? [], src.readFile, base);
  parseSetArgs('set-string', src.setString ?? [], src.readFile, base);
  parseSetArgs('set-file', src.setFile ?? [], src.readFile, base);
  return base;
}
