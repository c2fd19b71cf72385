import { describe, expect, it } from 'vitest';
import { renderCliTable } from '../../../src/cli/output/cliTable.js';

describe("renderCliTable (linkerd's cli/table)", () => {
  it('pads every cell to its column, two spaces after each (the last too), numbers right-aligned', () => {
    const out = renderCliTable(
      [{ header: 'NAME', leftAlign: true }, { header: 'RPS' }],
      [
        ['web', '1.50'],
        ['emoji-svc', '10.00'],
      ],
    );
    expect(out).toBe('NAME         RPS  \nweb         1.50  \nemoji-svc  10.00  \n');
  });

  it('sorts by the given columns, bytewise like Go', () => {
    const rows = [
      ['b', 'x', '2'],
      ['a', 'z', '1'],
      ['a', '[default]', '3'],
    ];
    const out = renderCliTable([{ header: 'A', leftAlign: true }, { header: 'B', leftAlign: true }, { header: 'C' }], rows, [0, 1]);
    expect(out.split('\n').map((l) => l.trimEnd())).toEqual(['A  B          C', 'a  [default]  3', 'a  z          1', 'b  x          2', '']);
  });

  it('draws a tree: a cell ending with ─ is padded with ─ and meets a cell starting with ─ by ──', () => {
    const out = renderCliTable(
      [
        { header: 'ROUTE', leftAlign: true },
        { header: 'TYPE', leftAlign: true },
        { header: 'BACKEND', leftAlign: true },
      ],
      [
        ['long-route', 'HTTPRoute', ''],
        ['└──', '────────►', 'b:80'],
      ],
    );
    // Widths count runes, not bytes: `─` and `►` are one column each.
    // ROUTE is 10 wide (`└` and 9 `─`), then `──` instead of the spaces, then TYPE's 9 (8 `─` and `►`).
    expect(out.split('\n')[2]).toBe(`└${'─'.repeat(9 + 2 + 8)}►  b:80     `);
  });
});
