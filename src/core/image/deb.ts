import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { arMembers, type ArMember } from './ar.js';
import { compressionOf, decompress } from './decompress.js';
import { parseDebDepends, parseStanza, type PackageMeta } from './packageMeta.js';
import { PackageError } from './packageError.js';
import { findInTar } from './tarEntries.js';

const MAX_CONTROL = 1 << 20;
const MAX_CONTROL_TAR = 64 << 20;
export const MAX_DATA = 8 * 1024 ** 3;

interface DebLayout {
  control: ArMember;
  data: ArMember;
}

async function layout(file: string, label: string): Promise<DebLayout> {
  const fh = await open(file, 'r');
  try {
    const { size } = await fh.stat();
    const members = await arMembers(fh, size, label);
    const first = members[0];
    if (first?.name !== 'debian-binary') throw new PackageError(label, undefined, 'not a .deb (its first member is not debian-binary)');
    const version = Buffer.alloc(Math.min(first.size, 16));
    await fh.read(version, 0, version.length, first.offset);
    if (!version.toString('latin1').startsWith('2.'))
      throw new PackageError(label, 'debian-binary', `unsupported format "${version.toString('latin1').trim()}"`);
    const control = members.find((m) => m.name.startsWith('control.tar'));
    const data = members.find((m) => m.name.startsWith('data.tar'));
    if (!control) throw new PackageError(label, undefined, 'no control.tar member');
    if (!data) throw new PackageError(label, undefined, 'no data.tar member');
    return { control, data };
  } finally {
    await fh.close();
  }
}

async function memberStream(file: string, m: ArMember, limit: number, label: string): Promise<Readable> {
  const kind = compressionOf(m.name);
  if (!kind) throw new PackageError(label, m.name, 'unsupported compression (gz, xz, zst or none)');
  if (m.size === 0) throw new PackageError(label, m.name, 'empty member');
  return decompress(createReadStream(file, { start: m.offset, end: m.offset + m.size - 1 }), kind, limit, label, m.name);
}

/** Reads a .deb's control file: name, version, architecture, relations, build time. */
export async function readDebMeta(file: string): Promise<PackageMeta> {
  const label = basename(file);
  const { control, data } = await layout(file, label);
  const found = await findInTar(await memberStream(file, control, MAX_CONTROL_TAR, label), ['control'], MAX_CONTROL, label, control.name);
  const text = found.get('control')?.toString('utf8');
  if (text === undefined) throw new PackageError(label, control.name, 'no control file');
  const f = parseStanza(text);
  const name = f.get('Package');
  const version = f.get('Version');
  const arch = f.get('Architecture');
  if (!name || !version || !arch) throw new PackageError(label, 'control', 'Package, Version and Architecture are required');
  const pre = parseDebDepends(f.get('Pre-Depends'));
  const dep = parseDebDepends(f.get('Depends'));
  return {
    format: 'deb',
    name,
    version,
    arch,
    depends: [...pre, ...dep],
    provides: parseDebDepends(f.get('Provides')).flat(),
    file,
    label,
    buildTime: data.mtime,
    description: f.get('Description')?.split('\n')[0],
    homepage: f.get('Homepage'),
    origin: f.get('Source')?.split(' ')[0] ?? name,
    installedSize: Number(f.get('Installed-Size') ?? 0) * 1024 || undefined,
    control: text.trimEnd(),
  };
}

/** The .deb's data.tar, decompressed, as a stream. */
export async function openDebData(meta: PackageMeta): Promise<Readable> {
  const { data } = await layout(meta.file, meta.label);
  return memberStream(meta.file, data, MAX_DATA, meta.label);
}
