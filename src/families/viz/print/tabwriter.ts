/*
 * Go's text/tabwriter as the viz tables use it (minwidth 0, padding 3, pad with spaces,
 * AlignRight): cells end with a tab, a column block is the run of consecutive lines that have
 * a cell in that column, each cell is right-aligned to its block's widest cell plus the padding,
 * the text after a line's last tab is not aligned. A line of one cell, or a form feed, ends the
 * blocks above it. Widths count characters (runes), as Go does.
 */

// Go counts runes (code points), not graphemes.
// eslint-disable-next-line @typescript-eslint/no-misused-spread
const width = (s: string) => [...s].length;

function formatLines(lines: string[][], padding: number, alignRight: boolean): string[] {
  const out: string[] = lines.map(() => '');
  const widths: number[] = [];
  const place = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const line = lines[i] ?? [];
      let text = '';
      line.forEach((cell, j) => {
        if (j < widths.length) {
          const pad = ' '.repeat(Math.max(0, (widths[j] ?? 0) - width(cell)));
          text += alignRight ? pad + cell : cell + pad;
        } else text += cell;
      });
      out[i] = text;
    }
  };
  const format = (line0: number, line1: number): void => {
    const column = widths.length;
    let start = line0;
    for (let t = line0; t < line1; t++) {
      if (column >= (lines[t]?.length ?? 0) - 1) continue;
      place(start, t);
      let w = 0;
      let end = t;
      for (; end < line1; end++) {
        const line = lines[end] ?? [];
        if (column >= line.length - 1) break;
        w = Math.max(w, width(line[column] ?? '') + padding);
      }
      widths.push(w);
      format(t, end);
      widths.pop();
      start = end;
      t = end - 1;
    }
    place(start, line1);
  };
  format(0, lines.length);
  return out;
}

/** Text written through a Go tabwriter and flushed. */
export function tabwrite(text: string, options: { padding?: number; alignRight?: boolean } = {}): string {
  const padding = options.padding ?? 3;
  const alignRight = options.alignRight ?? true;
  const out: string[] = [];
  let block: string[][] = [];
  const flush = () => {
    out.push(...formatLines(block, padding, alignRight).map((l) => `${l}\n`));
    block = [];
  };
  const rawLines = text.split('\n');
  const last = rawLines.pop() ?? '';
  for (const raw of rawLines) {
    const segments = raw.split('\f');
    segments.forEach((segment, k) => {
      const cells = segment.split('\t');
      block.push(cells);
      if (k < segments.length - 1 || cells.length === 1) flush();
    });
  }
  flush();
  return out.join('') + last;
}

/** linkerd's renderStats: the table with the padding of its first column taken off every line. */
export function stripLeadingPadding(table: string, padding = 3): string {
  const b = table.length > padding ? table.slice(padding) : '';
  return b.split(`\n${' '.repeat(padding)}`).join('\n');
}
