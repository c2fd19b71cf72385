/*
 * `npm run bundle` (after tsc): what bin/linkerd starts.
 *
 * - dist/bundle/: an ES-module bundle, split per command so a run loads only what it uses.
 * - dist/snapshot/<name>.blob: the V8 start-up snapshots of the CLI (snapshots.ts, entries in
 *   src/cli/snapshot/) for the node running this build, with `dist/snapshot/node` identifying that
 *   node binary and the blobs, and which commands start from which; bin/linkerd uses a blob only
 *   with that same binary, unchanged, and no NODE_OPTIONS, and falls back to the bundle otherwise
 *   (see snapshotBlob.ts, which an installed package also runs as its postinstall).
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { build, type BuildOptions } from 'esbuild';
import { GLOBAL_FLAGS } from '../cli/globals.js';
import { buildSnapshotBlob, type SnapshotManifest } from './snapshotBlob.js';
import { heldModules, onlyHeldCommands, SNAPSHOTS } from './snapshots.js';
import { yamlEnvOnce } from './yamlEnvOnce.js';
import { zodEnglishOnly } from './zodEnglishOnly.js';

const common: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  mainFields: ['module', 'main'],
  minify: true,
  // Read only when a --verbose stack trace is printed (src/cli/output/stackTrace.ts), so
  // start-up pays nothing; esbuild chains tsc's maps, so frames point at the TypeScript.
  sourcemap: 'linked',
  logLevel: 'warning',
  // 0.6 s to import; loaded only for exec/auth-provider/proxy kubeconfig users.
  // undici: only for fetch through a proxy.
  external: ['@kubernetes/client-node', 'undici'],
  // yaml's debugging switches read once, not per token (see yamlEnvOnce.ts); zod's English
  // messages only (see zodEnglishOnly.ts).
  plugins: [yamlEnvOnce, zodEnglishOnly],
};
const plugins = [yamlEnvOnce, zodEnglishOnly];

/** This build's identity, in dist/bundle/build-id and dist/fast/env. */
const BUILD_ID = randomUUID();

async function bundle(): Promise<void> {
  // The constant outputs go first: they must never outlive the bundle they came from.
  rmSync('dist/fast', { recursive: true, force: true });
  rmSync('dist/bundle', { recursive: true, force: true });
  const { metafile } = await build({
    ...common,
    // Named outputs: dist/bundle/run.js, main.js and the inject worker's script (src/core/inject/injectPool.ts finds it there).
    entryPoints: { run: 'dist/src/cli/run.js', main: 'dist/src/cli/main.js', injectWorker: 'dist/src/core/inject/injectWorker.js' },
    outdir: 'dist/bundle',
    format: 'esm',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
    // Which source modules each chunk holds: test/build/startup-modules.test.ts reads it to name
    // what a run loaded. Beside the bundle, not in it, so the package does not ship it.
    metafile: true,
  });
  writeFileSync('dist/bundle-meta.json', JSON.stringify(metafile));
  // What pairs the constant outputs with this bundle (bin/linkerd compares the two): modification
  // times cannot, an installed package's are the times npm extracted each file.
  writeFileSync('dist/bundle/build-id', `${BUILD_ID}\n`);
}

/** Each snapshot's entry (dist/snapshot/<name>.cjs), the list of them, then their blobs. */
async function snapshot(): Promise<void> {
  rmSync('dist/snapshot', { recursive: true, force: true });
  mkdirSync('dist/snapshot');
  for (const s of SNAPSHOTS) {
    const options: BuildOptions = {
      ...common,
      entryPoints: [`dist/src/${s.entry}`],
      outfile: `dist/snapshot/${s.name}.cjs`,
      format: 'cjs',
      // import.meta has no meaning in a snapshot: code that asks gets undefined (and esbuild no warning).
      define: { 'import.meta.url': 'undefined' },
    };
    // First what the entry imports itself (every family loader a marker), then the entry with the
    // loaders of those modules kept: the snapshot holds exactly the commands its entry imports.
    const first = await build({ ...options, write: false, metafile: true, plugins: [...plugins, onlyHeldCommands(undefined)] });
    await build({ ...options, plugins: [...plugins, onlyHeldCommands(heldModules(first.metafile, process.cwd()))] });
  }
  const manifest: SnapshotManifest = {
    valueFlags: GLOBAL_FLAGS.filter((f) => f.type !== 'bool').flatMap((f) => [`--${f.name}`, ...(f.short ? [`-${f.short}`] : [])]),
    snapshots: SNAPSHOTS.map(({ name, routes }) => ({ name, routes })),
  };
  writeFileSync('dist/snapshot/snapshots.json', `${JSON.stringify(manifest, null, 2)}\n`);
  await buildSnapshotBlob('dist/snapshot');
}

/**
 * dist/fast: the help of every command and `version --client`, made by the bundle just built, in
 * a child process with an empty environment (see constantOutputs.ts). If it fails, the build
 * says so and goes on: bin/linkerd then runs node for those requests too.
 */
function constantOutputs(): void {
  const r = spawnSync(process.execPath, ['dist/src/build/constantOutputs.js', 'dist/bundle/main.js', 'dist/fast', BUILD_ID], { env: {}, encoding: 'utf8' });
  if (r.status !== 0) {
    process.stderr.write(`linkerd-ts: the constant outputs (dist/fast) were not made: ${r.stderr || r.error?.message || `exit ${r.status}`}\n`);
    return;
  }
  const ca = extraCaProof(process.env.NODE_EXTRA_CA_CERTS);
  if (ca) writeFileSync('dist/fast/ca', ca);
}

/**
 * NODE_EXTRA_CA_CERTS names a file node reads as it starts (even `node -e 0` does), and a file it
 * cannot read or parse makes it print a warning on stderr. The
 * launcher serves constant outputs under it only when it names the file checked here, unchanged:
 * its path and identity (`stat -L -c`, as the launcher compares it), when node loaded it without
 * a word. Undefined when it is unset or does not load cleanly.
 */
function extraCaProof(file: string | undefined): string | undefined {
  if (!file) return undefined;
  const r = spawnSync(process.execPath, ['-e', "require('node:tls').createSecureContext()"], { env: { NODE_EXTRA_CA_CERTS: file }, encoding: 'utf8' });
  if (r.status !== 0 || r.stderr !== '') return undefined;
  const id = spawnSync('stat', ['-L', '-c', '%d:%i:%s:%Y:%Z', '--', file], { encoding: 'utf8' });
  return id.status === 0 && id.stdout.trim() ? `${file}\n${id.stdout.trim()}\n` : undefined;
}

await bundle();
constantOutputs();
await snapshot();
