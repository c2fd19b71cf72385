/** Levenshtein distance, bounded: past `max` the exact figure does not matter. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const d = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length] ?? max + 1;
}

/**
 * The name among `names` a mistyped `name` most likely meant: within a third of its length in
 * edits (at least one, at most three), the closest first, ties by name.
 */
export function nearestName(name: string, names: Iterable<string>): string | undefined {
  const max = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  let best: { name: string; d: number } | undefined;
  for (const n of names) {
    if (n === name) continue;
    const d = distance(name, n, max);
    if (d <= max && (!best || d < best.d || (d === best.d && n < best.name))) best = { name: n, d };
  }
  return best?.name;
}

/** ` (did you mean "web"?)`, or nothing. */
export function didYouMean(name: string, names: Iterable<string>): string {
  const n = nearestName(name, names);
  return n === undefined ? '' : ` (did you mean "${n}"?)`;
}
