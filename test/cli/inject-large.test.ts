import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliPeakRss } from '../support/peakRss.js';

/*
 * Large inputs are processed one document at a time: memory is bounded by the largest document,
 * not by the file (issue 10 item 4). Reading the whole stream at once took 1.7 GB for 4 MB of
 * separators and 1.1 GB for 20,000 documents with --manual; each bound here is far below that and
 * far above what a document at a time needs (about 200 MB, most of it node and the libraries).
 */

const BOUND_MB = 600;
const ANCHORS = 'fixtures/certs/valid-trust-anchors.pem';

describe('inject and uninject of large inputs (CLI)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'l5d-large-'));
    writeFileSync(path.join(dir, 'separators.yaml'), '---\n'.repeat(1 << 20));
    const doc = (i: number) =>
      `---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: w${i}\nspec:\n  template:\n    spec:\n      containers:\n      - name: app\n        image: nginx\n`;
    writeFileSync(path.join(dir, 'docs.yaml'), Array.from({ length: 20_000 }, (_, i) => doc(i)).join(''));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(`reads 4 MB of "---" separators within ${BOUND_MB} MB`, async () => {
    const r = await runCliPeakRss(['inject', '--ignore-cluster', path.join(dir, 'separators.yaml')]);
    expect(r.code).toBe(0);
    expect(r.stderrTail).toContain('no supported objects found');
    expect(r.rssMB).toBeLessThan(BOUND_MB);
  }, 300_000);

  it(`injects 20,000 documents with --manual within ${BOUND_MB} MB`, async () => {
    const r = await runCliPeakRss(['inject', '--manual', '--ignore-cluster', '--identity-trust-anchors-file', ANCHORS, path.join(dir, 'docs.yaml')]);
    expect(r.code).toBe(0);
    expect(r.stderrTail).toContain('deployment "w19999" injected');
    expect(r.rssMB).toBeLessThan(BOUND_MB);
  }, 300_000);
});
