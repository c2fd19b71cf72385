import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import os from 'node:os';
import { REPO_ROOT, runCli } from '../support/cli.js';

/* One way to print an instant: Go's RFC 3339 in UTC, whole seconds (`2035-01-01T00:00:00Z`). */

function sources(dir: string): string[] {
  return fs
    .readdirSync(path.join(REPO_ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(dir, f));
}

describe('time in messages and output', () => {
  it('is formatted by formatRFC3339 only: no toISOString() (with its .000) elsewhere', () => {
    const offenders = [...sources('src'), ...sources('templates')]
      .filter((f) => !f.endsWith('formatRFC3339.ts'))
      .flatMap((f) =>
        fs
          .readFileSync(path.join(REPO_ROOT, f), 'utf8')
          .split('\n')
          .map((line, i) => ({ where: `${f}:${i + 1}`, line }))
          // A slice of it (the clock of a Go-style date) is not a printed instant.
          .filter(({ line }) => /toISOString\(\)(?!\.slice\()/.test(line)),
      )
      .map((o) => o.where);
    expect(offenders).toEqual([]);
  });

  it('identity create-trust-anchor says when the anchor ends, without fractions', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l5d-time-'));
    try {
      const r = await runCli(['identity', 'create-trust-anchor'], { cwd: dir });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/valid until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ, /);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
