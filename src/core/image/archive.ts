import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { pack } from 'tar-stream';
import { addEntry, writeTar } from './tarWriter.js';

/**
 * Tars an OCI layout directory (plus extra documents such as docker's manifest.json) into one
 * file, streaming each blob: oci-archive and docker-archive are both this.
 */
export async function tarLayout(layoutDir: string, outFile: string, extra: Record<string, Buffer>, epoch: number): Promise<void> {
  const p = pack();
  const done = pipeline(p, createWriteStream(outFile));
  const mtime = new Date(epoch * 1000);
  const base = { uid: 0, gid: 0, uname: '', gname: '', mtime };
  await writeTar(p, done, async () => {
    await addEntry(p, { ...base, name: 'blobs/', type: 'directory', mode: 0o755 });
    await addEntry(p, { ...base, name: 'blobs/sha256/', type: 'directory', mode: 0o755 });
    const blobs = (await readdir(join(layoutDir, 'blobs', 'sha256'))).sort();
    for (const b of blobs) {
      const file = join(layoutDir, 'blobs', 'sha256', b);
      const { size } = await stat(file);
      await pipeline(createReadStream(file), p.entry({ ...base, name: `blobs/sha256/${b}`, type: 'file', mode: 0o644, size }));
    }
    for (const name of ['index.json', 'oci-layout']) {
      const file = join(layoutDir, name);
      const { size } = await stat(file);
      await pipeline(createReadStream(file), p.entry({ ...base, name, type: 'file', mode: 0o644, size }));
    }
    for (const [name, body] of Object.entries(extra).sort(([a], [b]) => (a < b ? -1 : 1)))
      await addEntry(p, { ...base, name, type: 'file', mode: 0o644 }, body);
  });
}
