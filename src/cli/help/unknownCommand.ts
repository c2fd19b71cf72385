/*
 * cobra's answer to an unknown subcommand: suggestions are the commands within Levenshtein
 * distance 2 of what was typed (ignoring case), or that start with it.
 */

/** Edit distance between `a` and `b`, ignoring case (cobra's `ld(…, true)`). */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    for (let j = 1; j <= t.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (s[i - 1] === t[j - 1] ? 0 : 1);
      row.push(Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, substitution));
    }
    previous = row;
  }
  return previous[t.length] ?? 0;
}

/** cobra's SuggestionsMinimumDistance. */
const MIN_DISTANCE = 2;

/** The command names cobra would suggest for `typed`, in the order given. */
export function suggestionsFor(typed: string, names: readonly string[]): string[] {
  return names.filter((n) => editDistance(typed, n) <= MIN_DISTANCE || n.toLowerCase().startsWith(typed.toLowerCase()));
}

/** cobra's whole stderr text for an unknown command of `path` (e.g. `linkerd`). */
export function unknownCommandText(typed: string, path: string, names: readonly string[]): string {
  const suggestions = suggestionsFor(typed, names);
  const did = suggestions.length > 0 ? `\n\nDid you mean this?\n${suggestions.map((s) => `\t${s}\n`).join('')}` : '';
  return `Error: unknown command ${JSON.stringify(typed)} for ${JSON.stringify(path)}${did}\nRun '${path} --help' for usage.\n`;
}
