import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBounded } from '../support/bounded.js';
import { REPO_ROOT } from '../support/cli.js';
import { kubectlGetYaml } from '../support/kubectlYaml.js';

/*
 * Issue 24 item 12: manifests far denser than real ones (a collection every 2 to 5 bytes) are
 * refused by their size before the parser builds them, with the heap capped so that building them
 * would fail the test; real manifests, managedFields and all, still go through unchanged.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkerd-ts-dense-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** `head`, then `unit` `count` times, then `tail`, streamed to a file of `dir`. */
function streamed(name: string, head: string, unit: string, count: number, tail: string): string {
  const file = path.join(dir, name);
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, head);
  const block = unit.repeat(65_536);
  for (let left = count; left > 0; left -= 65_536) fs.writeSync(fd, left >= 65_536 ? block : unit.repeat(left));
  fs.writeSync(fd, tail);
  fs.closeSync(fd);
  return file;
}

const MB = 1_000_000;
const HEAP = { maxOldSpaceMb: 256, maxRssMb: 700, timeoutMs: 120_000 };
const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const refusal = (file: string, budget: string, prefix = 'Error: ') =>
  new RegExp(
    `^${escaped(prefix)}${escaped(file)}:\\d+:\\d+: more than ${budget} objects and lists for its size \\(one per 16 bytes, plus 100,000\\); refusing to parse it\\n$`,
  );

/** A YAML document past 2,000,000 nodes: dense YAML reaches it before its collection budget. */
const tooLarge = (file: string, prefix = 'Error: ') =>
  new RegExp(
    `^${escaped(prefix)}${escaped(file)}:\\d+:1: more than 2,000,000 maps, lists and values in one YAML document; refusing to parse it \\(give a large List as JSON, or as one document per object\\)\\n$`,
  );

describe('dense manifests are refused before they are parsed', () => {
  it('inject: 20 MB of `x: [{},{},…]` YAML is one line and exit 1, at its first line', async () => {
    const file = streamed('dense.yaml', 'x: [', '{},', (20 * MB) / 3, '{}]\n');
    const r = await runBounded(['inject', '--ignore-cluster', file], HEAP);
    expect(r.killed).toBeUndefined();
    // Two nodes per `{},` (the map and the comma): past 2,000,000 after 3 MB, before the budget's 4 MB.
    expect(r.stderr).toMatch(tooLarge(file));
    expect(r.stderr).toContain(`${file}:1:1: `);
    expect(r.stdout).toBe('');
    expect(r.code).toBe(1);
  }, 130_000);

  it('inject: 20 MB of block `- a:` lines (no brace at all) likewise', async () => {
    const file = streamed('block.yaml', 'apiVersion: v1\nkind: List\nitems:\n', '- a:\n', (20 * MB) / 5, '');
    const r = await runBounded(['inject', '--ignore-cluster', file], HEAP);
    expect(r.killed).toBeUndefined();
    expect(r.stderr).toMatch(tooLarge(file));
    expect(r.stdout).toBe('');
    expect(r.code).toBe(1);
  }, 130_000);

  it('inject: 20 MB of dense JSON is one line and exit 1, where the budget ran out', async () => {
    const file = streamed('dense.json', '{"items":[', '{},', (20 * MB) / 3, '{}]}\n');
    const r = await runBounded(['inject', '--ignore-cluster', file], HEAP);
    expect(r.killed).toBeUndefined();
    expect(r.stderr).toMatch(refusal(file, '1,350,000'));
    expect(r.stdout).toBe('');
    expect(r.code).toBe(1);
  }, 130_000);

  it.each(['inject', 'uninject'])(
    '%s: 60 MB of top-level `{}` values (one JSON stream) is one line and exit 1',
    async (command) => {
      const file = streamed(`empties-${command}.json`, '', '{}', 30 * MB, '\n');
      const r = await runBounded(command === 'inject' ? ['inject', '--ignore-cluster', file] : ['uninject', file], HEAP);
      expect(r.killed).toBeUndefined();
      expect(r.stderr).toMatch(refusal(file, '3,850,000'));
      expect(r.stdout).toBe('');
      expect(r.code).toBe(1);
    },
    130_000,
  );

  it('upgrade --from-manifests: a dense document among real ones is refused at its line', async () => {
    const real = fs.readFileSync(path.join(REPO_ROOT, 'fixtures/manifests/shop.yaml'), 'utf8');
    const lines = real.split('\n').length;
    const file = streamed('from-manifests.yaml', `${real}---\nx: [`, '{},', (20 * MB) / 3, '{}]\n');
    const r = await runBounded(['upgrade', '--from-manifests', file], HEAP);
    expect(r.killed).toBeUndefined();
    expect(r.stderr).toMatch(tooLarge(file, `failed to parse manifests from ${file}: `));
    expect(r.stderr).toContain(`${file}:${lines}:1: `);
    expect(r.stdout).toBe('');
    expect(r.code).toBe(1);
  }, 130_000);
});

/** The built CLI with its heap capped, all of its output kept. */
function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--max-old-space-size=256', 'dist/bundle/run.js', ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: '/nonexistent', CI: 'true' },
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    timeout: 240_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('real manifests still go through unchanged', () => {
  it('injects 3.6 MB of manifests (1,000 copies of the shop) byte for byte as it injects one copy', () => {
    const one = fs.readFileSync(path.join(REPO_ROOT, 'fixtures/manifests/shop.yaml'), 'utf8');
    const single = path.join(dir, 'shop.yaml');
    fs.writeFileSync(single, `${one}---\n`);
    const many = streamed('shop-many.yaml', '', `${one}---\n`, 1000, '');
    const expected = cli(['inject', '--ignore-cluster', single]);
    expect(expected.code).toBe(0);
    const r = cli(['inject', '--ignore-cluster', many]);
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBe(expected.stdout.length * 1000);
    expect(r.stdout === expected.stdout.repeat(1000)).toBe(true);
  }, 250_000);

  it('injects a `kubectl get -o yaml` List with managedFields (one 1.4 MB document) and uninjects it back byte for byte', () => {
    const file = path.join(dir, 'kubectl-get.yaml');
    const text = kubectlGetYaml(300);
    fs.writeFileSync(file, text);
    const injected = cli(['inject', '--ignore-cluster', file]);
    expect(injected.stderr.match(/^deployment "web-\d+" injected$/gm)).toHaveLength(300);
    expect(injected.code).toBe(0);
    const back = path.join(dir, 'kubectl-get-injected.yaml');
    fs.writeFileSync(back, injected.stdout);
    const r = cli(['uninject', back]);
    expect(r.code).toBe(0);
    expect(r.stdout === text).toBe(true);
  }, 250_000);
});
