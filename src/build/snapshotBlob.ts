/*
 * The V8 start-up snapshots' blobs, built from dist/snapshot/<name>.cjs for the node running this
 * (the snapshots are listed in dist/snapshot/snapshots.json, see snapshots.ts). A blob works only
 * with the node that made it, so they are made twice over: by the build (bundle.ts), and where the
 * package is installed (`postinstall`, when npm runs it — npm 11 runs a dependency's install
 * scripts only with --allow-scripts). The package ships without blobs; without one bin/linkerd
 * loads the bundle, so a skipped or failed build here costs start-up time, never correctness.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** dist/snapshot/snapshots.json, written by the build (bundle.ts) from snapshots.ts. */
export interface SnapshotManifest {
  valueFlags: readonly string[];
  snapshots: ReadonlyArray<{ name: string; routes: readonly string[] }>;
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

/** Runs `node --build-snapshot` for one entry; resolves to its stderr, or rejects with it. */
function buildOne(entry: string, blob: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--snapshot-blob', blob, '--build-snapshot', entry], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stderr) : reject(new Error(stderr))));
  });
}

/**
 * Builds `<dir>/<name>.blob` for every snapshot `<dir>/snapshots.json` lists (side by side: two
 * cores build two at once), and `<dir>/node`, the stamp bin/linkerd reads. Says why not, and
 * leaves no stamp, when it cannot; a snapshot that fails alone is left out of the stamp (its
 * commands then start from the bundle).
 */
export async function buildSnapshotBlob(dir: string): Promise<boolean> {
  const marker = path.join(dir, 'node');
  rmSync(marker, { force: true });
  const manifestFile = path.join(dir, 'snapshots.json');
  if (!existsSync(manifestFile)) return false;
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as SnapshotManifest;
  for (const { name } of manifest.snapshots) rmSync(path.join(dir, `${name}.blob`), { force: true });
  if (!process.features.require_module) {
    console.warn(`linkerd-ts: node ${process.version} cannot require() ES modules; no start-up snapshot`);
    return false;
  }
  const built = await Promise.all(
    manifest.snapshots.map(async ({ name }) => {
      const blob = path.join(dir, `${name}.blob`);
      try {
        const warnings = builderWarnings(await buildOne(path.join(dir, `${name}.cjs`), blob));
        if (warnings) console.warn(warnings);
        return name;
      } catch (e) {
        rmSync(blob, { force: true });
        console.warn(
          `linkerd-ts: the start-up snapshot ${name} could not be built; bin/linkerd will load the bundle for its commands\n${(e as Error).message}`,
        );
        return undefined;
      }
    }),
  );
  const names = built.filter((n): n is string => n !== undefined);
  if (names.length === 0) return false;
  const node = realpathSync(process.execPath);
  const ids = statIds([node, ...names.map((n) => path.join(dir, `${n}.blob`))]);
  if (ids === undefined) {
    for (const n of names) rmSync(path.join(dir, `${n}.blob`), { force: true });
    console.warn('linkerd-ts: `stat -L -c` is not available to identify node; bin/linkerd will load the bundle');
    return false;
  }
  const [nodeId = '', ...blobIds] = ids;
  writeFileSync(marker, snapshotStamp(node, nodeId, manifest, names, blobIds));
  return names.length === manifest.snapshots.length;
}

/**
 * Device, inode, size, modification and change times of each file, as `stat -L -c` prints them,
 * the same tool bin/linkerd runs (a package upgrade or a copy changes the inode and the change
 * time even when it keeps the modification time).
 */
function statIds(files: readonly string[]): string[] | undefined {
  const r = spawnSync('stat', ['-L', '-c', '%d:%i:%s:%Y:%Z', '--', ...files], { encoding: 'utf8' });
  const ids = r.status === 0 ? r.stdout.trim().split('\n') : [];
  return ids.length === files.length && ids.every(Boolean) ? ids : undefined;
}

/**
 * What bin/linkerd reads before it starts from a snapshot, one `key=value` a line, in the order
 * it reads them: the node binary (path and identity; the version is for people), the global flags
 * that take a value, the snapshot for unrouted commands, each snapshot's routes (`viz/install`
 * for `viz install`), then each blob's identity.
 */
function snapshotStamp(node: string, nodeId: string, manifest: SnapshotManifest, names: readonly string[], blobIds: readonly string[]): string {
  const lines = [`path=${node}`, `version=${process.version}`, `node=${nodeId}`, `flags=${manifest.valueFlags.join(' ')}`];
  lines.push(`default=${manifest.snapshots[0]?.name ?? ''}`);
  for (const s of manifest.snapshots) if (s.routes.length) lines.push(`route=${s.name} ${s.routes.map((r) => r.split(' ').join('/')).join(' ')}`);
  names.forEach((n, i) => lines.push(`blob=${n} ${blobIds[i]}`));
  return `${lines.join('\n')}\n`;
}
