import { isAlias, isPair, isScalar, type Alias, type Pair } from 'yaml';

/** A pair's key as text (scalar keys by value). */
export function keyOf(pair: Pair): string {
  const k = pair.key;
  if (isScalar(k)) return String(k.value);
  return String(k);
}

/** The alias of a YAML 1.1 merge key (`<<: *name`: the mapping takes the keys of the aliased one under its own). */
export function mergedAlias(pair: unknown): Alias | undefined {
  if (!isPair(pair)) return undefined;
  const k = pair.key;
  const merge = isScalar(k) && (k.value === '<<' || (typeof k.value === 'symbol' && k.source === '<<'));
  return merge && isAlias(pair.value) ? pair.value : undefined;
}

export const isMergePair = (pair: unknown): boolean => mergedAlias(pair) !== undefined;
