/*
 * The V8 start-up snapshot's blob, built from dist/snapshot/entry.cjs for the node running this.
 * A blob works only with the node that made it, so it is made twice over: by the build
 * (bundle.ts), and where the package is installed (`postinstall`, when npm runs it — npm 11 runs
 * a dependency's install scripts only with --allow-scripts). The package ships without a blob;
 * without one bin/linkerd loads the bundle, so a skipped or failed build here costs start-up
 * time, never correctness.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

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

/** Builds `<dir>/linkerd.blob` and `<dir>/node`; says why not (and leaves neither) when it cannot. */
export function buildSnapshotBlob(dir: string): boolean {
  const blob = path.join(dir, 'linkerd.blob');
  const marker = path.join(dir, 'node');
  rmSync(blob, { force: true });
  rmSync(marker, { force: true });
  if (!process.features.require_module) {
    console.warn(`linkerd-ts: node ${process.version} cannot require() ES modules; no start-up snapshot`);
    return false;
  }
  const entry = path.join(dir, 'entry.cjs');
  if (!existsSync(entry)) return false;
  const r = spawnSync(process.execPath, ['--snapshot-blob', blob, '--build-snapshot', entry], { encoding: 'utf8' });
  if (r.status !== 0) {
    rmSync(blob, { force: true });
    console.warn(`linkerd-ts: the start-up snapshot could not be built; bin/linkerd will load the bundle\n${r.stderr}`);
    return false;
  }
  const warnings = builderWarnings(r.stderr);
  if (warnings) console.warn(warnings);
  const stamp = snapshotStamp(realpathSync(process.execPath), blob);
  if (stamp === undefined) {
    rmSync(blob, { force: true });
    console.warn('linkerd-ts: `stat -L -c` is not available to identify node; bin/linkerd will load the bundle');
    return false;
  }
  writeFileSync(marker, stamp);
  return true;
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
