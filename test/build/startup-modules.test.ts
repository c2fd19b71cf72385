import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../core/install/support.js';

/*
 * What a run loads before and while its command runs, from the ES-module bundle (the snapshot
 * holds everything it was built with, so the bundle is where an eager import shows): a module
 * hook records every file node loads, and the bundle's metafile (dist/bundle-meta.json) names the
 * source modules in each chunk. A family whose declaration imports its commands eagerly puts them
 * in every run's list, and fails these lists.
 */

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'linkerd-startup-modules-'));
  // Runs on node's hooks thread: one line per module loaded, appended to the file the run names.
  writeFileSync(
    path.join(dir, 'hooks.mjs'),
    "import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  appendFileSync(process.env.LOADED_LOG, url + '\\n');\n  return next(url, context);\n}\n",
  );
  writeFileSync(path.join(dir, 'register.mjs'), "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The URLs node loaded running `script` with `args`. */
function loadedFiles(script: string, args: string[]): string[] {
  const log = path.join(dir, `loaded-${Math.random().toString(36).slice(2)}.log`);
  writeFileSync(log, '');
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(path.join(dir, 'register.mjs')).href, script, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: '/nonexistent', KUBECONFIG: '/nonexistent', LOADED_LOG: log },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

/** The source modules (dist/src/… without the prefix) and packages held by the chunks a run loaded. */
function loadedModules(files: readonly string[], meta: Metafile, metaRoot: string): string[] {
  const out = new Set<string>();
  for (const url of files.filter((u) => u.startsWith('file:'))) {
    const output = meta.outputs[path.relative(metaRoot, new URL(url).pathname)];
    if (!output) continue;
    for (const input of Object.keys(output.inputs)) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      out.add(pkg ? `npm:${pkg[1]}` : input.replace(/^.*dist\/src\//, ''));
    }
  }
  return [...out].sort();
}

const bundleMeta = (): Metafile => JSON.parse(readFileSync(path.join(ROOT, 'dist/bundle-meta.json'), 'utf8')) as Metafile;
const run = (args: string[]) => loadedModules(loadedFiles(path.join(ROOT, 'dist/bundle/run.js'), args), bundleMeta(), ROOT);

/** What every run loads before it knows its command: the program, the kit and the declarations. */
const STARTUP = [
  'cli/completion/complete.js', // shares kit/flags.js's chunk: every completion path imports both
  'cli/flags/collect.js',
  'cli/globals.js',
  'cli/help/cobraErrors.js',
  'cli/help/cobraHelp.js',
  'cli/help/commandPath.js',
  'cli/kit/argv.js',
  'cli/kit/bools.js',
  'cli/kit/command.js',
  'cli/kit/deprecation.js',
  'cli/kit/family.js',
  'cli/kit/flags.js',
  'cli/kit/io.js',
  'cli/kit/namespaceEnv.js',
  'cli/main.js',
  'cli/output/sanitize.js',
  'cli/run.js',
  'core/errors.js',
  'core/parse/invalidArgument.js',
  'core/parse/parsed.js',
  'core/parse/strconv.js',
  'core/values/charts.js',
  'families/analyze/index.js', // each family's declaration: names, summaries, loaders
  'families/cni/index.js',
  'families/core/index.js',
  'families/diagnostics/index.js',
  'families/multicluster/index.js',
  'families/registry.js',
  'families/viz/index.js',
  'npm:commander',
  'npm:zod',
];

describe('the modules a run loads', () => {
  it('version --client: the start-up modules and the version command, nothing of another command', () => {
    expect(run(['version', '--client'])).toEqual([...STARTUP, 'cli/commands/version.js', 'core/version.js'].sort());
  });

  it('--help: the start-up modules only; help lists every family from its declaration', () => {
    expect(run(['--help'])).toEqual(STARTUP);
  });

  it('viz --help: the start-up modules only; the viz subcommands are listed from the declaration', () => {
    expect(run(['viz', '--help'])).toEqual(STARTUP);
  });

  it('a family whose declaration imports its command eagerly shows in version --client', async () => {
    // A bundle like dist/bundle, from the same compiled sources, with one more family whose
    // index.js imports the install command at module level instead of in its loader.
    const out = path.join(dir, 'eager');
    mkdirSync(out, { recursive: true });
    const src = path.join(ROOT, 'dist/src');
    const family = path.join(out, 'eagerFamily.js');
    writeFileSync(
      family,
      `import { command } from ${JSON.stringify(path.join(src, 'cli/commands/install.js'))};\n` +
        "export const eager = { name: 'eager', commands: [{ name: 'eager', summary: 'eager', load: async () => ({ command }) }] };\n",
    );
    const entry = path.join(out, 'entry.js');
    writeFileSync(
      entry,
      `import { runLinkerd } from ${JSON.stringify(path.join(src, 'cli/main.js'))};\n` +
        `import { FAMILIES } from ${JSON.stringify(path.join(src, 'families/registry.js'))};\n` +
        `import { processIo } from ${JSON.stringify(path.join(src, 'cli/kit/io.js'))};\n` +
        "import { eager } from './eagerFamily.js';\n" +
        'process.exitCode = await runLinkerd(process.argv.slice(2), processIo(), [...FAMILIES, eager]);\n',
    );
    const { metafile } = await build({
      entryPoints: { run: entry },
      absWorkingDir: ROOT,
      outdir: path.join(out, 'bundle'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      splitting: true,
      external: ['@kubernetes/client-node', 'undici'],
      banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
      metafile: true,
      logLevel: 'silent',
    });
    const loaded = loadedModules(loadedFiles(path.join(out, 'bundle/run.js'), ['version', '--client']), metafile, ROOT);
    expect(loaded).toContain('cli/commands/install.js');
    expect(loaded).not.toEqual([...STARTUP, 'cli/commands/version.js', 'core/version.js'].sort());
  });
});
