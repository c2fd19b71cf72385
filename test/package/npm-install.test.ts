import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';
import { startLocalRegistry, type LocalRegistry } from '../support/local-registry.js';

/*
 * What a user does: `npm pack`, then `npm install -g ./linkerd-ts-*.tgz --prefix DIR` on a machine
 * with no checkout, then DIR/bin/linkerd. The tarball is packed from the dist/ that `pretest`
 * built (--ignore-scripts skips the prepare build, which would rewrite dist/ under the other
 * tests). npm installs from a loopback registry serving the locked versions out of the npm cache
 * `npm ci` filled, with a fresh cache of its own: nothing comes from the network.
 */

const run = promisify(execFile);

let work: string;
let registry: LocalRegistry;
let tarball: string;
let prefix: string;
let packedFiles: string[];
let bare: string;

async function npm(args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  const userconfig = path.join(work, 'npmrc');
  return run('npm', args, {
    cwd,
    env: { PATH: process.env.PATH, HOME: work, npm_config_userconfig: userconfig, npm_config_update_notifier: 'false' },
    maxBuffer: 64 * 1024 * 1024,
  });
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'l5d-pack-'));
  writeFileSync(path.join(work, 'npmrc'), '');
  const { stdout: cache } = await run('npm', ['config', 'get', 'cache'], { cwd: REPO_ROOT });
  registry = await startLocalRegistry(path.join(REPO_ROOT, 'package-lock.json'), cache.trim());
  const packed = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], REPO_ROOT);
  const info = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const first = info[0];
  if (!first) throw new Error('npm pack reported no tarball');
  tarball = path.join(work, first.filename);
  packedFiles = first.files.map((f) => f.path);
  prefix = path.join(work, 'prefix');
  const elsewhere = mkdtempSync(path.join(work, 'cwd-'));
  // npm 11 runs a package's install scripts only when allowed; older npm ignores the setting.
  const install = ['install', '-g', tarball, '--prefix', prefix, '--registry', registry.url, '--cache', path.join(work, 'cache'), '--no-audit', '--no-fund'];
  await npm([...install, '--allow-scripts=linkerd-ts'], elsewhere);
  bare = path.join(work, 'bare');
  await npm([...install.map((a) => (a === prefix ? bare : a)), '--ignore-scripts'], elsewhere);
}, 300_000);

afterAll(async () => {
  await registry.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('packs the launcher and the built output, and no tests, fixtures, benchmarks or sources', () => {
    expect(packedFiles).toContain('bin/linkerd');
    expect(packedFiles).toContain('dist/bundle/run.js');
    for (const f of ['dist/snapshot/start.cjs', 'dist/snapshot/render.cjs', 'dist/snapshot/edit.cjs', 'dist/snapshot/snapshots.json'])
      expect(packedFiles).toContain(f);
    // The constant outputs (help, version --client) and the variables that turn them off; not the
    // build machine's NODE_EXTRA_CA_CERTS proof (dist/fast/ca).
    for (const f of ['dist/fast/linkerd.--help', 'dist/fast/linkerd.version.--client', 'dist/fast/env']) expect(packedFiles).toContain(f);
    for (const f of packedFiles)
      expect(f).not.toMatch(/^(test|fixtures|bench|src|templates|node_modules)\/|\.ts$|^dist\/snapshot\/\w+\.blob$|^dist\/fast\/ca$/);
  });

  it('installs with npm install -g from the tarball, fetching only its runtime dependency tree', () => {
    expect(registry.requested.has('@kubernetes/client-node')).toBe(true);
    for (const bundled of ['commander', 'zod', 'chalk', 'esbuild', 'vitest', 'typescript']) expect(registry.requested.has(bundled)).toBe(false);
  });

  it('runs DIR/bin/linkerd version --client with no checkout around', async () => {
    const r = await run(path.join(prefix, 'bin', 'linkerd'), ['version', '--client'], { cwd: work, env: { PATH: process.env.PATH, HOME: work } });
    expect(r.stdout).toMatch(/^Client version: \S+\n$/);
  });

  it('prints help and version --client from the constant outputs, without starting node', async () => {
    // A `node` first on PATH that fails: an answer that reached node would show it.
    const fakeBin = path.join(work, 'fake-node-bin');
    mkdirSync(fakeBin, { recursive: true });
    writeFileSync(path.join(fakeBin, 'node'), '#!/bin/sh\nexit 99\n', { mode: 0o755 });
    const env = { PATH: `${fakeBin}:${process.env.PATH ?? ''}`, HOME: work };
    const help = await run(path.join(prefix, 'bin', 'linkerd'), ['--help'], { cwd: work, env });
    expect(help.stdout).toContain('Usage:\n  linkerd [command]\n');
    const version = await run(path.join(prefix, 'bin', 'linkerd'), ['version', '--client'], { cwd: work, env });
    expect(version.stdout).toMatch(/^Client version: \S+\n$/);
  });

  it('renders an install with --ignore-cluster', async () => {
    const r = await run(path.join(prefix, 'bin', 'linkerd'), ['install', '--ignore-cluster'], {
      cwd: work,
      env: { PATH: process.env.PATH, HOME: work },
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(r.stdout).toContain('kind: Deployment');
    expect(r.stdout).toContain('name: linkerd-destination');
  });

  it('builds the start-up snapshot where it lands, for the node that installed it', () => {
    const snapshot = path.join(prefix, 'lib', 'node_modules', 'linkerd-ts', 'dist', 'snapshot');
    for (const name of ['start', 'render', 'edit']) expect(existsSync(path.join(snapshot, `${name}.blob`))).toBe(true);
    // The stamp the launcher compares: this node's real path and version, and the stat identities.
    const stamp = readFileSync(path.join(snapshot, 'node'), 'utf8');
    expect(stamp).toContain(`path=${realpathSync(process.execPath)}\n`);
    expect(stamp).toContain(`version=${process.version}\n`);
    expect(stamp).toMatch(/^node=\d+:\d+:\d+:\d+:\d+$/m);
    expect(stamp).toMatch(/^blob=start \d+:\d+:\d+:\d+:\d+$/m);
    expect(stamp).toMatch(/^blob=render \d+:\d+:\d+:\d+:\d+$/m);
    expect(stamp).toMatch(/^blob=edit \d+:\d+:\d+:\d+:\d+$/m);
    expect(stamp).toMatch(/^route=render install /m);
  });

  it('runs from the bundle when install scripts were skipped (no snapshot)', async () => {
    expect(existsSync(path.join(bare, 'lib', 'node_modules', 'linkerd-ts', 'dist', 'snapshot', 'start.blob'))).toBe(false);
    const r = await run(path.join(bare, 'bin', 'linkerd'), ['install', '--ignore-cluster'], {
      cwd: work,
      env: { PATH: process.env.PATH, HOME: work },
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(r.stdout).toContain('kind: Deployment');
  });

  it('injects on a worker thread from the installed package, from the snapshot and from the bundle', async () => {
    const manifest = path.join(work, 'deploy.yaml');
    const deploy = (name: string) =>
      `---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  template:\n    spec:\n      containers:\n      - name: app\n        image: nginx\n`;
    writeFileSync(manifest, deploy('a') + deploy('b'));
    const inject = (dir: string, env: Record<string, string>) =>
      run(
        path.join(dir, 'bin', 'linkerd'),
        ['inject', '--manual', '--ignore-cluster', '--identity-trust-anchors-file', path.join(REPO_ROOT, 'fixtures/certs/valid-trust-anchors.pem'), manifest],
        { cwd: work, env: { PATH: process.env.PATH, HOME: work, NODE_DEBUG: 'worker', ...env } },
      );
    const oneThread = await inject(prefix, { LINKERD_TS_INJECT_WORKERS: '0' });
    expect(oneThread.stderr).not.toMatch(/created Worker with ID/);
    expect(oneThread.stdout).toContain('image: cr.l5d.io/linkerd/proxy:');
    for (const dir of [prefix, bare]) {
      // The threshold at 0 characters: the first batch goes to the worker; node logs the worker it starts.
      const r = await inject(dir, { LINKERD_TS_INJECT_WORKERS: '1', LINKERD_TS_INJECT_WORKERS_AFTER: '0' });
      expect(r.stderr).toMatch(/created Worker with ID/);
      expect(r.stdout).toBe(oneThread.stdout);
    }
  });
});
