import type { CheckDefinition, CheckMode } from '../../core/check/index.js';

/** `check --list`: every check with its stable id, for `--skip`/`--only` and CI configuration. */
export function checkList(checks: readonly CheckDefinition[], modesOf: (c: CheckDefinition) => CheckMode[], o: { json: boolean; hintBaseUrl: string }): string {
  const rows = checks.map((c) => ({
    id: c.id,
    category: c.category,
    severity: c.severity,
    retryable: c.retryable,
    modes: modesOf(c),
    description: c.description,
    hint: `${o.hintBaseUrl}${c.hintAnchor}`,
  }));
  if (o.json) return `${JSON.stringify(rows, null, 2)}\n`;
  const header = ['ID', 'CATEGORY', 'SEVERITY', 'RETRY', 'MODES', 'DESCRIPTION'];
  const table = rows.map((r) => [r.id, r.category, r.severity, r.retryable ? 'yes' : 'no', r.modes.join(','), r.description]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ');
  return `${[line(header), ...table.map(line)].join('\n')}\n`;
}
