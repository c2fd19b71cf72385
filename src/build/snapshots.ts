import path from 'node:path';
import type { Metafile, Plugin } from 'esbuild';

/*
 * The V8 start-up snapshots the build makes, and which commands bin/linkerd starts from each.
 * A snapshot's start costs in proportion to its heap, so one holding every renderer would slow
 * `version` and `--help` down: `start` holds the program and the light commands, `render` the
 * installs, `edit` the commands that read the user's manifests. A command routed nowhere starts from `start`, which hands it to
 * the bundle (src/cli/snapshot/run.ts); a wrong route is only slower, never wrong.
 */

export interface SnapshotSpec {
  name: string;
  /** The entry, under dist/src/. */
  entry: string;
  /** The command paths (`install`, `viz install`) bin/linkerd starts from this snapshot. */
  routes: readonly string[];
}

/** The first one is where everything not routed elsewhere starts. */
export const SNAPSHOTS: readonly SnapshotSpec[] = [
  { name: 'start', entry: 'cli/snapshot/start.js', routes: [] },
  { name: 'render', entry: 'cli/snapshot/render.js', routes: ['install', 'upgrade', 'viz install', 'multicluster install'] },
  { name: 'edit', entry: 'cli/snapshot/edit.js', routes: ['inject', 'uninject', 'analyze'] },
];

/**
 * The families' declarations, whose loaders import a command's modules (`load: () => import(...)`),
 * and the core family's chart list (its charts' loaders, which no run calls: commands import the
 * chart they render).
 */
const DECLARATION = /[\\/](?:families[\\/][^\\/]+[\\/]index|core[\\/]values[\\/]charts)\.js$/;

/**
 * Replaces each module a family's declaration imports lazily with a marker, unless `keep` has it
 * (absolute paths): a snapshot holds only the commands its entry imports; the marker tells the
 * snapshot at run time that a run needs the bundle (src/cli/snapshot/run.ts).
 */
export function onlyHeldCommands(keep: ReadonlySet<string> | undefined): Plugin {
  return {
    name: 'only-held-commands',
    setup(build) {
      build.onResolve({ filter: /^\./ }, (a) => {
        if (a.kind !== 'dynamic-import' || !DECLARATION.test(a.importer)) return undefined;
        const target = path.resolve(path.dirname(a.importer), a.path);
        return keep?.has(target) ? undefined : { path: target, namespace: 'not-in-snapshot' };
      });
      build.onLoad({ filter: /.*/, namespace: 'not-in-snapshot' }, () => ({ contents: 'export const notInSnapshot = true;', loader: 'js' }));
    },
  };
}

/** The source modules (absolute paths) a first, marker-only build of an entry holds: what it imports itself. */
export function heldModules(meta: Metafile, cwd: string): Set<string> {
  return new Set(Object.keys(meta.inputs).map((p) => path.resolve(cwd, p)));
}
