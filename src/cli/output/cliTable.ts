/*
 * linkerd's cli/table: columns as wide as their widest cell (counted in runes), two spaces after
 * every cell (the last one too), text columns left-aligned and numbers right-aligned, rows sorted
 * by the given columns. A cell starting with `─` is padded with `─` on its left, one ending with
 * it on its right, and two such cells meet with `──` instead of the spaces (the tree drawing of
 * `viz stat-outbound`'s backend rows).
 */

export interface CliColumn {
  header: string;
  leftAlign?: boolean;
}

const SPACING = '  ';
/** Go's utf8.RuneCountInString: code points, as Go counts them (not grapheme clusters). */
// eslint-disable-next-line @typescript-eslint/no-misused-spread -- code points are what Go counts
const runes = (s: string) => [...s].length;

export function renderCliTable(columns: readonly CliColumn[], rows: readonly (readonly string[])[], sortBy: readonly number[] = []): string {
  const widths = columns.map((c, i) => Math.max(runes(c.header), ...rows.map((r) => runes(r[i] ?? ''))));
  const sorted = [...rows];
  if (sortBy.length > 0) {
    sorted.sort((a, b) => {
      for (const col of sortBy) {
        const [x, y] = [a[col] ?? '', b[col] ?? ''];
        // Go compares strings bytewise; so do UTF-8 buffers.
        const c = Buffer.compare(Buffer.from(x), Buffer.from(y));
        if (c !== 0) return c;
      }
      return 0;
    });
  }
  const line = (row: readonly string[]) =>
    columns
      .map((col, c) => {
        const value = row[c] ?? '';
        const width = widths[c] ?? 0;
        const fill = width - runes(value);
        const spacing = value.endsWith('─') && c < columns.length - 1 && (row[c + 1] ?? '').startsWith('─') ? '──' : SPACING;
        if (value.startsWith('─')) return `${'─'.repeat(fill)}${value}${spacing}`;
        if (value.endsWith('─')) return `${value}${'─'.repeat(fill)}${spacing}`;
        return col.leftAlign ? `${value}${' '.repeat(fill)}${spacing}` : `${' '.repeat(fill)}${value}${spacing}`;
      })
      .join('');
  return [line(columns.map((c) => c.header)), ...sorted.map(line)].map((l) => `${l}\n`).join('');
}
