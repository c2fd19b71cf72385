/*
 * `npm run bundle` (after tsc): what bin/linkerd starts.
 *
 * - dist/bundle/: an ES-module bundle, split per command so a run loads only what it uses.
 * - dist/snapshot/linkerd.blob: a V8 start-up snapshot of the CLI (src/cli/snapshot.ts) for the
 *   node running this build, with `dist/snapshot/node` identifying that node binary and the blob
 *   (see snapshotStamp); bin/linkerd uses it only with that same binary, unchanged, and no
 *   NODE_OPTIONS, and falls back to the bundle otherwise. The snapshot needs
 *   `require()` of ES modules (Node ≥ 20.19) for the packages it leaves out; without it, or if
 *   the snapshot cannot be built, the build says so and the bundle alone is used.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { build, type BuildOptions } from 'esbuild';

const common: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  mainFields: ['module', 'main'],
  minify: true,
  logLevel: 'warning',
  // 0.6 s to import; loaded only for exec/auth-provider/proxy kubeconfig users.
  // undici: only for fetch through a proxy.
  external: ['@kubernetes/client-node', 'undici'],
};

async function bundle(): Promise<void> {
  rmSync('dist/bundle', { recursive: true, force: true });
  await build({
    ...common,
    entryPoints: ['dist/src/cli/run.js', 'dist/src/cli/main.js'],
    outdir: 'dist/bundle',
    format: 'esm',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
  });
}

/**
 * The builder's stderr without node's notice that a built-in module the bundle requires (e.g.
 * commander's child_process) is "not yet fully verified" in snapshots: those modules are only
 * used after the snapshot is started, and the tests run every command from the snapshot.
 */
function builderWarnings(stderr: string): string {
  return stderr
    .split(/\n(?=\(node:\d+\) )/)
    .filter((w) => !w.includes('not yet fully verified whether built-in module'))
    .join('\n')
    .trim();
}

async function snapshot(): Promise<void> {
  rmSync('dist/snapshot', { recursive: true, force: true });
  if (!process.features.require_module) {
    console.warn(`linkerd-ts: node ${process.version} cannot require() ES modules; building without the start-up snapshot`);
    return;
  }
  mkdirSync('dist/snapshot');
  await build({ ...common, entryPoints: ['dist/src/cli/snapshot.js'], outfile: 'dist/snapshot/entry.cjs', format: 'cjs' });
  const r = spawnSync(process.execPath, ['--snapshot-blob', 'dist/snapshot/linkerd.blob', '--build-snapshot', 'dist/snapshot/entry.cjs'], { encoding: 'utf8' });
  if (r.status !== 0) {
    rmSync('dist/snapshot', { recursive: true, force: true });
    console.warn(`linkerd-ts: the start-up snapshot could not be built; bin/linkerd will load the bundle\n${r.stderr}`);
    return;
  }
  const warnings = builderWarnings(r.stderr);
  if (warnings) console.warn(warnings);
  const stamp = snapshotStamp(realpathSync(process.execPath), 'dist/snapshot/linkerd.blob');
  if (stamp === undefined) {
    console.warn('linkerd-ts: `stat -L -c` is not available to identify node; bin/linkerd will load the bundle');
    return;
  }
  writeFileSync('dist/snapshot/node', stamp);
}

/**
 * What bin/linkerd compares before it starts from the snapshot: the node binary (device, inode,
 * size, modification and change times — a package upgrade or a copy changes the inode and the
 * change time even when it keeps the modification time) and the blob, as `stat -L -c` prints
 * them, the same tool the launcher runs. The version is recorded for people reading the stamp.
 */
function snapshotStamp(node: string, blob: string): string | undefined {
  const r = spawnSync('stat', ['-L', '-c', '%d:%i:%s:%Y:%Z', '--', node, blob], { encoding: 'utf8' });
  const [nodeId, blobId] = r.status === 0 ? r.stdout.trim().split('\n') : [];
  if (!nodeId || !blobId) return undefined;
  return `path=${node}\nversion=${process.version}\nnode=${nodeId}\nblob=${blobId}\n`;
}

await bundle();
await snapshot();
