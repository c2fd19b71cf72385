import { createReadStream, createWriteStream } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip } from 'node:zlib';
import { pack, type Header, type Pack } from 'tar-stream';

/** A header to write; `pax-header` is a type tar-stream writes but does not declare. */
type TarHeader = Partial<Omit<Header, 'type'>> & { name: string; type: Header['type'] | 'pax-header' };
import { DigestStream } from './digestStream.js';
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

async function writeEntry(p: Pack, header: TarHeader, node: TreeNode): Promise<void> {
  if (node.xattrs && node.xattrs.size > 0) {
    const pax = paxXattrs(node.xattrs);
    const name = `PaxHeaders/${header.name.replace(/\/$/, '').split('/').pop() ?? ''}`.slice(0, 99);
    await entry(p, { name, type: 'pax-header', size: pax.length, mode: 0o644, mtime: header.mtime, uid: 0, gid: 0 }, pax);
  }
  if (header.type !== 'file' || !node.data) return entry(p, header, header.type === 'file' ? Buffer.alloc(0) : undefined);
  if ('bytes' in node.data) return entry(p, header, node.data.bytes);
  await pipeline(createReadStream(node.data.path), p.entry({ ...header, type: 'file' }));
}

function entry(p: Pack, header: TarHeader, body?: Buffer): Promise<void> {
  // tar-stream writes any type its encoder knows, 'pax-header' included; its types list fewer.
  const h = header as Parameters<Pack['entry']>[0];
  return new Promise((resolve, reject) => {
    const cb = (err?: Error | null) => (err ? reject(err) : resolve());
    if (body) p.entry(h, body, cb);
    else p.entry(h, cb);
  });
}

/**
 * Writes the tree as one gzip layer into `blobsDir` (named by its digest), streaming: the tar is
 * hashed for the diff_id, compressed (fixed level; Node's gzip header has no time or name) and
 * hashed again. Hard links name the first path of their group, which always comes first.
 */
export async function writeLayer(tree: RootTree, blobsDir: string, epoch: number, tmpName: string): Promise<LayerBlob> {
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
  const gz = createGzip({ level: constants.Z_DEFAULT_COMPRESSION });
  const compressed = new DigestStream();
  const tmp = join(blobsDir, tmpName);
  const done = pipeline(p, raw, gz, compressed, createWriteStream(tmp));
  const mtime = (n: TreeNode) => new Date(Math.min(n.mtime, epoch) * 1000);
  try {
    for (const path of paths) {
      const n = tree.get(path);
      if (!n) continue;
      const base = { mode: n.mode, uid: n.uid, gid: n.gid, mtime: mtime(n), uname: '', gname: '' };
      if (n.type === 'dir') await writeEntry(p, { ...base, name: `${path}/`, type: 'directory' }, n);
      else if (n.type === 'symlink') await writeEntry(p, { ...base, name: path, type: 'symlink', linkname: n.linkname ?? '' }, n);
      else {
        const first = canonical(path);
        if (first !== path) await writeEntry(p, { ...base, name: path, type: 'link', linkname: first }, n);
        else {
          const data = tree.get(dataOf.get(path) ?? path);
          if (!data) continue;
          await writeEntry(p, { ...base, name: path, type: 'file', size: data.size }, data.type === 'file' ? { ...n, data: data.data } : n);
        }
      }
    }
    p.finalize();
    await done;
  } catch (e) {
    p.destroy(e instanceof Error ? e : new Error(String(e)));
    await done.catch(() => undefined);
    throw e;
  }
  const digest = compressed.digest();
  await rename(tmp, join(blobsDir, digest.slice('sha256:'.length)));
  return { digest, size: compressed.size, diffId: raw.digest() };
}
