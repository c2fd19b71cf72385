import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { yamlEnvOnce } from '../../src/build/yamlEnvOnce.js';
import { REPO_ROOT, runCli } from '../support/cli.js';

/*
 * The bundle reads yaml's per-token debugging switches once (src/build/yamlEnvOnce.ts): the
 * built code keeps no lookup in the token loop, the switch still works when set, and a yaml whose
 * code no longer has the lookup stops the build instead of silently losing the saving.
 */

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'l5d-yamlenv-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Bundles `source` as if it were node_modules/yaml/dist/parse/parser.js. */
async function bundleAsYamlParser(source: string): Promise<string> {
  const file = path.join(dir, 'node_modules', 'yaml', 'dist', 'parse', 'parser.js');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, source);
  const r = await build({ entryPoints: [file], bundle: true, platform: 'node', write: false, plugins: [yamlEnvOnce], logLevel: 'silent' });
  return r.outputFiles[0]?.text ?? '';
}

describe("yaml's debugging switches in the bundle", () => {
  it('are read once when the module loads, not at each token', async () => {
    const out = await bundleAsYamlParser(
      "var node_process = require('process');\nexports.next = function* (t) { if (node_process.env.LOG_TOKENS) console.log('|', t); yield t; };\n",
    );
    expect(out).toContain('var __yamlEnv_LOG_TOKENS = process.env.LOG_TOKENS;');
    expect(out).toContain('if (__yamlEnv_LOG_TOKENS)');
    expect(out).not.toContain('node_process.env');
    // Loaded while a start-up snapshot is built, the module reads it again when a run starts.
    expect(out).toMatch(/addDeserializeCallback\(function\s*\(\)\s*\{\s*__yamlEnv_LOG_TOKENS = process\.env\.LOG_TOKENS;\s*\}\)/);
  });

  it('stop the build when yaml no longer looks them up', async () => {
    await expect(bundleAsYamlParser('exports.next = function* (t) { yield t; };\n')).rejects.toThrow(/no per-token process\.env switch found/);
  });

  it('leave no lookup in the built bundle and snapshot entries', () => {
    const chunks = path.join(REPO_ROOT, 'dist', 'bundle', 'chunks');
    const built = [
      ...readdirSync(chunks).map((f) => path.join(chunks, f)),
      ...['start', 'render', 'edit'].map((n) => path.join(REPO_ROOT, 'dist', 'snapshot', `${n}.cjs`)),
    ]
      .filter((f) => f.endsWith('.js') || f.endsWith('.cjs'))
      .map((f) => readFileSync(f, 'utf8'))
      .filter((text) => text.includes('LOG_TOKENS'));
    // The bundle's yaml chunk and every snapshot's entry (each holds yaml; start and render load it lazily).
    expect(built).toHaveLength(4);
    for (const text of built) {
      // Every mention is a read into a variable (at load, and after a snapshot's deserialization).
      const mentions = text.match(/LOG_TOKENS/g) ?? [];
      expect(mentions.length).toBeGreaterThan(0);
      expect(text.match(/=process\.env\.LOG_TOKENS\b/g)).toHaveLength(mentions.length);
    }
  });

  it('still work when set: LOG_TOKENS makes inject log the tokens it parses', async () => {
    const manifest = path.join(dir, 'deploy.yaml');
    writeFileSync(
      manifest,
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: app\n        image: nginx\n',
    );
    for (const env of [{}, { LINKERD_TS_NO_SNAPSHOT: '1' }]) {
      // The built bundle and snapshot are what this is about: spawned.
      const r = await runCli(['inject', '--ignore-cluster', manifest], { env: { ...env, LOG_TOKENS: '1' }, spawn: true });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^\| "apiVersion"$/m);
      expect(r.stdout).toContain('linkerd.io/inject: enabled');
      const off = await runCli(['inject', '--ignore-cluster', manifest], { env, spawn: true });
      expect(off.stdout).not.toMatch(/^\| /m);
    }
  });
});
