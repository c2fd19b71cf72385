import { createReadStream, createWriteStream } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip } from 'node:zlib';
import { pack, type Pack } from 'tar-stream';
import { addEntry, writeTar, type TarHeader } from './tarWriter.js';
import { DigestStream } from './digestStream.js';
import { throwIfInterrupted } from './interrupted.js';
import type { RootTree, TreeNode } from './tree.js';

export interface LayerBlob {
  /** sha256 of the gzip blob. */
  digest: string;
  size: number;
  /** sha256 of the uncompressed tar (the config's rootfs.diff_ids). */
  diffId: string;
}

/** A PAX extended header body with `SCHILY.xattr.*` records; values are raw bytes. */
export function paxXattrs(xattrs: Map<string, Buffer>): Buffer {
  const records: Buffer[] = [];
  for (const [key, value] of [...xattrs].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const body = Buffer.concat([Buffer.from(` SCHILY.xattr.${key}=`), value, Buffer.from('\n')]);
    let len = body.length + 1;
    while (String(len).length + body.length !== len) len = String(len).length + body.length;
    records.push(Buffer.from(String(len)), body);
  }
  return Buffer.concat(records);
}

/**
 * A complete PAX extended-header entry (typeflag `x`): a ustar header block, the records and
 * padding. tar-stream encodes PAX values as UTF-8 text, which would corrupt binary xattr
 * values such as security.capability, so this one block is written as raw bytes.
 */
export function paxEntry(name: string, records: Buffer, mtime: number): Buffer {
  const h = Buffer.alloc(512);
  const octal = (v: number, offset: number, len: number) => h.write(`${v.toString(8).padStart(len - 1, '0')}\0`, offset, len, 'latin1');
  h.write(name.slice(0, 99), 0, 100, 'utf8');
  octal(0o644, 100, 8);
  octal(0, 108, 8);
  octal(0, 116, 8);
  octal(records.length, 124, 12);
  octal(mtime, 136, 12);
  h.fill(0x20, 148, 156);
  h.write('x', 156, 1, 'latin1');
  h.write('ustar\0', 257, 6, 'latin1');
  h.write('00', 263, 2, 'latin1');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'latin1');
  const pad = (512 - (records.length % 512)) % 512;
  return Buffer.concat([h, records, Buffer.alloc(pad)]);
}

async function writeEntry(p: Pack, header: TarHeader, node: TreeNode, epoch: number): Promise<void> {
  if (node.xattrs && node.xattrs.size > 0) {
    // Written between entries (the previous one has finished), where tar-stream itself writes headers.
    const name = `PaxHeaders/${header.name.replace(/\/$/, '').split('/').pop() ?? ''}`;
    p.push(paxEntry(name, paxXattrs(node.xattrs), epoch));
  }
  if (header.type !== 'file' || !node.data) return addEntry(p, header, header.type === 'file' ? Buffer.alloc(0) : undefined);
  if ('bytes' in node.data) return addEntry(p, header, node.data.bytes);
  await pipeline(createReadStream(node.data.path, { highWaterMark: 256 << 10 }), p.entry({ ...header, type: 'file' }));
}

/**
 * Writes the tree as one gzip layer into `blobsDir` (named by its digest), streaming: the tar is
 * hashed for the diff_id, compressed (fixed level; Node's gzip header has no time or name) and
 * hashed again. Hard links name the first path of their group, which always comes first.
 */
export async function writeLayer(tree: RootTree, blobsDir: string, epoch: number, tmpName: string, signal?: AbortSignal): Promise<LayerBlob> {
  const paths = tree.sortedPaths();
  // Hard-link groups: the data's path and its links; the member first in layer order carries the data.
  const order = new Map(paths.map((path, i) => [path, i]));
  const dataOf = new Map<string, string>();
  const firstOfGroup = new Map<string, string>();
  for (const path of paths) {
    const n = tree.get(path);
    if (n?.type !== 'link' || !n.linkname) continue;
    let target = n.linkname;
    for (let hops = 0; tree.get(target)?.type === 'link' && hops < 40; hops++) target = tree.get(target)?.linkname ?? target;
    dataOf.set(path, target);
    dataOf.set(target, target);
    const first = firstOfGroup.get(target) ?? target;
    firstOfGroup.set(target, (order.get(path) ?? 0) < (order.get(first) ?? 0) ? path : first);
  }
  const canonical = (path: string): string => {
    const target = dataOf.get(path);
    return target === undefined ? path : (firstOfGroup.get(target) ?? target);
  };
  const p = pack();
  const raw = new DigestStream();
  const gz = createGzip({ level: constants.Z_DEFAULT_COMPRESSION, chunkSize: 64 << 10 });
  const compressed = new DigestStream();
  const tmp = join(blobsDir, tmpName);
  const done = pipeline(p, raw, gz, compressed, createWriteStream(tmp));
  const mtime = (n: TreeNode) => new Date(Math.min(n.mtime, epoch) * 1000);
  await writeTar(p, done, async () => {
    for (const path of paths) {
      throwIfInterrupted(signal);
      const n = tree.get(path);
      if (!n) continue;
      const base = { mode: n.mode, uid: n.uid, gid: n.gid, mtime: mtime(n), uname: '', gname: '' };
      if (n.type === 'dir') await writeEntry(p, { ...base, name: `${path}/`, type: 'directory' }, n, epoch);
      else if (n.type === 'symlink') await writeEntry(p, { ...base, name: path, type: 'symlink', linkname: n.linkname ?? '' }, n, epoch);
      else {
        const first = canonical(path);
        if (first !== path) await writeEntry(p, { ...base, name: path, type: 'link', linkname: first }, n, epoch);
        else {
          const data = tree.get(dataOf.get(path) ?? path);
          if (!data) continue;
          await writeEntry(p, { ...base, name: path, type: 'file', size: data.size }, data.type === 'file' ? { ...n, data: data.data } : n, epoch);
        }
      }
    }
  });
  const digest = compressed.digest();
  await rename(tmp, join(blobsDir, digest.slice('sha256:'.length)));
  return { digest, size: compressed.size, diffId: raw.digest() };
}
