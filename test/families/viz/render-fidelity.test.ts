import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';
import { expectedInventory, inventoryDiff, inventoryOf, VOLATILE } from '../../support/fieldInventory.js';

const fixture = (name: string) => fileURLToPath(new URL(`golden/${name}.fields.yaml`, import.meta.url));

/**
 * `linkerd viz install` as the CLI prints it (certificates generated on the run), parsed and
 * flattened field by field, against a reviewed expectation (see docs/commands/viz.md for the
 * deliberate differences from linkerd2's viz chart). A failure lists each object and field path
 * that appeared, disappeared or changed.
 */
describe('viz install: the whole render, field by field, against the reviewed expectation', () => {
  for (const [name, args] of [
    ['viz-install-default', []],
    ['viz-install-ha', ['--ha']],
  ] as const) {
    it(`matches ${name}.fields.yaml in every object and field`, async () => {
      const r = await runCli(['viz', 'install', '--ignore-cluster', ...args]);
      expect(r.code).toBe(0);
      const actual = inventoryOf(r.stdout);
      expect(inventoryDiff(expectedInventory(fixture(name), actual), actual)).toEqual([]);
    });
  }

  it('masks the generated certificates and their digests only', async () => {
    const r = await runCli(['viz', 'install', '--ignore-cluster']);
    const inv = inventoryOf(r.stdout);
    const volatile = Object.entries(inv).flatMap(([ref, fields]) =>
      Object.entries(fields)
        .filter(([, v]) => v === VOLATILE)
        .map(([p]) => `${ref}: ${p}`),
    );
    expect(volatile.length).toBeGreaterThan(0);
    for (const line of volatile) expect(line).toMatch(/caBundle|checksum|data\.|PEM/);
  });
});
