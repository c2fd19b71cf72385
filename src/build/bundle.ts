/*
 * `npm run bundle` (after tsc): what bin/linkerd starts.
 *
 * - dist/bundle/: an ES-module bundle, split per command so a run loads only what it uses.
 * - dist/snapshot/linkerd.blob: a V8 start-up snapshot of the CLI (src/cli/snapshot.ts) for the
 *   node running this build, with `dist/snapshot/node` identifying that node binary and the blob;
 *   bin/linkerd uses it only with that same binary, unchanged, and no NODE_OPTIONS, and falls back to
 *   the bundle otherwise (see snapshotBlob.ts,
 *   which an installed package also runs as its postinstall).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { build, type BuildOptions } from 'esbuild';
import { buildSnapshotBlob } from './snapshotBlob.js';
import { yamlEnvOnce } from './yamlEnvOnce.js';

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
  // yaml's debugging switches read once, not per token (see yamlEnvOnce.ts).
  plugins: [yamlEnvOnce],
};

async function bundle(): Promise<void> {
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
}

async function snapshot(): Promise<void> {
  rmSync('dist/snapshot', { recursive: true, force: true });
  mkdirSync('dist/snapshot');
  // import.meta has no meaning in a snapshot: code that asks gets undefined (and esbuild no warning).
  await build({
    ...common,
    entryPoints: ['dist/src/cli/snapshot.js'],
    outfile: 'dist/snapshot/entry.cjs',
    format: 'cjs',
    define: { 'import.meta.url': 'undefined' },
  });
  buildSnapshotBlob('dist/snapshot');
}

await bundle();
await snapshot();
