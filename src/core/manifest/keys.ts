import { isScalar, type Pair } from 'yaml';

/** A pair's key as text (scalar keys by value). */
export function keyOf(pair: Pair): string {
  const k = pair.key;
  if (isScalar(k)) return String(k.value);
  return String(k);
}
