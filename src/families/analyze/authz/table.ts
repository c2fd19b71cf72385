import type { AuthzRow } from './rows.js';

/*
 * The real `linkerd authz` table (its cli/table): left-aligned columns with a minimum width, every
 * cell padded to its column and followed by two spaces (the last one too); the header always.
 */

const COLUMNS: ReadonlyArray<{ header: string; min: number; cell: (r: AuthzRow) => string }> = [
  { header: 'ROUTE', min: 6, cell: (r) => r.route || '*' },
  { header: 'SERVER', min: 6, cell: (r) => r.server },
  { header: 'AUTHORIZATION_POLICY', min: 21, cell: (r) => r.authorizationPolicy },
  { header: 'SERVER_AUTHORIZATION', min: 21, cell: (r) => r.serverAuthorization },
];

export function authzTable(rows: readonly AuthzRow[]): string {
  const cells = rows.map((r) => COLUMNS.map((c) => c.cell(r)));
  const widths = COLUMNS.map((c, i) => Math.max(c.min, c.header.length, ...cells.map((row) => row[i]?.length ?? 0)));
  const line = (values: readonly string[]) => `${values.map((v, i) => `${v.padEnd(widths[i] ?? 0)}  `).join('')}\n`;
  return line(COLUMNS.map((c) => c.header)) + cells.map(line).join('');
}
