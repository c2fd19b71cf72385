/**
 * Every test file runs with its own TMPDIR (a fresh directory under the real one), inherited by the
 * CLI and tools the file spawns. When the file ends, that directory must be empty: a test that leaves
 * a file behind (an issuer key, a build tree, a kubeconfig) fails here, naming what it left.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect } from 'vitest';

// Test files share a worker (isolate: false), so the real TMPDIR is remembered once per process.
const ORIGINAL = Symbol.for('linkerd-ts.tmpdir.original');
const holder = globalThis as { [ORIGINAL]?: { env: string | undefined; base: string } };
holder[ORIGINAL] ??= { env: process.env.TMPDIR, base: os.tmpdir() };
const original = holder[ORIGINAL];

const dir = fs.mkdtempSync(path.join(original.base, 'linkerd-ts-test-'));
// Traversable like the real one: some tests run a script as another user on files made under it.
fs.chmodSync(dir, 0o755);
process.env.TMPDIR = dir;
// Deliberate caches kept between runs (downloaded packages) live in the real one: see machineTmpdir().
process.env.LINKERD_TS_MACHINE_TMPDIR = original.base;

/** Paths under `root`, relative to it (directories end with /). */
function leftovers(root: string): string[] {
  return fs.readdirSync(root, { recursive: true, withFileTypes: true }).map((e) => {
    const rel = path.relative(root, path.join(e.parentPath, e.name));
    return e.isDirectory() ? `${rel}/` : rel;
  });
}

afterAll(() => {
  const left = leftovers(dir).sort().slice(0, 20);
  if (original.env === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = original.env;
  fs.rmSync(dir, { recursive: true, force: true });
  expect(left, 'files this test file left in its TMPDIR').toEqual([]);
});
