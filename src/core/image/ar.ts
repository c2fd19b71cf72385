import type { FileHandle } from 'node:fs/promises';
import { PackageError } from './packageError.js';

/** One member of a Unix `ar` archive (a .deb): its name and where its bytes are in the file. */
export interface ArMember {
  name: string;
  offset: number;
  size: number;
  /** Modification time, seconds since the epoch (dpkg-deb writes the build time here). */
  mtime: number;
}

const MAGIC = '!<arch>\n';
const HEADER = 60;
const MAX_MEMBERS = 16;

/** Lists the members of an ar archive, reading only the 60-byte headers. */
export async function arMembers(fh: FileHandle, fileSize: number, pkg: string): Promise<ArMember[]> {
  const head = Buffer.alloc(HEADER);
  const magic = Buffer.alloc(8);
  await fh.read(magic, 0, 8, 0);
  if (magic.toString('latin1') !== MAGIC) throw new PackageError(pkg, undefined, 'not a .deb (no ar archive header)');
  const out: ArMember[] = [];
  let pos = 8;
  while (pos < fileSize) {
    if (out.length >= MAX_MEMBERS) throw new PackageError(pkg, undefined, `more than ${MAX_MEMBERS} ar members`);
    const { bytesRead } = await fh.read(head, 0, HEADER, pos);
    if (bytesRead < HEADER) throw new PackageError(pkg, undefined, 'truncated ar member header');
    if (head[58] !== 0x60 || head[59] !== 0x0a) throw new PackageError(pkg, undefined, `corrupt ar member header at byte ${pos}`);
    const name = head.toString('latin1', 0, 16).trim().replace(/\/$/, '');
    const mtime = parseInt(head.toString('latin1', 16, 28).trim() || '0', 10);
    const size = parseInt(head.toString('latin1', 48, 58).trim(), 10);
    if (!Number.isSafeInteger(size) || size < 0 || pos + HEADER + size > fileSize) {
      throw new PackageError(pkg, name, 'truncated or corrupt ar member (its size runs past the end of the file)');
    }
    out.push({ name, offset: pos + HEADER, size, mtime: Number.isFinite(mtime) ? mtime : 0 });
    pos += HEADER + size + (size % 2);
  }
  return out;
}
