import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { createInflateRaw, inflateRawSync } from 'node:zlib';
import { decompress } from './decompress.js';
import { verifyApkSignature, type Keyring } from './keyring.js';
import { MAX_DATA } from './deb.js';
import { parseApkDependency, type PackageMeta } from './packageMeta.js';
import { PackageError } from './packageError.js';
import { findInTar } from './tarEntries.js';

/*
 * Alpine/Wolfi packages: concatenated gzip streams — an optional signature, the control section
 * (.PKGINFO), then the data. APKINDEX's `C:` is the SHA-1 of the control stream's compressed
 * bytes and .PKGINFO's `datahash` the SHA-256 of the data stream's; both are checked.
 */

const HEAD_WINDOW = 4 << 20;
const MAX_CONTROL_SECTION = 64 << 20;
const MAX_INDEX = 256 << 20;
const MAX_PKGINFO = 1 << 20;

/** The end offset (exclusive) of the gzip member starting at `start` in `buf`. */
async function gzipMemberEnd(buf: Buffer, start: number, label: string): Promise<number> {
  if (buf[start] !== 0x1f || buf[start + 1] !== 0x8b || buf[start + 2] !== 8) throw new PackageError(label, undefined, `not a gzip stream at byte ${start}`);
  const p = start + gzipHeaderLength(buf.subarray(start));
  if (p <= start || p > buf.length) throw new PackageError(label, undefined, 'corrupt gzip header');
  // A raw inflater stops at the end of its deflate stream: what it consumed is the member's body.
  const inflater = createInflateRaw();
  let out = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      inflater.on('data', (d: Buffer) => {
        out += d.length;
        if (out > MAX_CONTROL_SECTION) inflater.destroy(new Error(`more than ${MAX_CONTROL_SECTION} bytes`));
      });
      inflater.on('end', resolve);
      inflater.on('error', reject);
      inflater.end(buf.subarray(p));
    });
  } catch (e) {
    throw new PackageError(label, undefined, `corrupt or truncated gzip stream (${e instanceof Error ? e.message : String(e)})`);
  }
  const end = p + inflater.bytesWritten + 8;
  if (end > buf.length) throw new PackageError(label, undefined, 'truncated gzip stream');
  return end;
}

interface ApkSections {
  signature?: Buffer;
  control: Buffer;
  dataOffset: number;
  size: number;
}

async function sections(file: string, label: string): Promise<ApkSections> {
  const fh = await open(file, 'r');
  try {
    const { size } = await fh.stat();
    const head = Buffer.alloc(Math.min(size, HEAD_WINDOW));
    await fh.read(head, 0, head.length, 0);
    let start = 0;
    let end = await gzipMemberEnd(head, 0, label);
    let signature: Buffer | undefined;
    if (isSignature(head.subarray(0, end), label)) {
      signature = head.subarray(0, end);
      start = end;
      if (start >= head.length) throw new PackageError(label, undefined, 'truncated: no control section after the signature');
      end = await gzipMemberEnd(head, start, label);
    }
    if (end >= size) throw new PackageError(label, undefined, 'truncated: no data section');
    return { signature, control: head.subarray(start, end), dataOffset: end, size };
  } finally {
    await fh.close();
  }
}

function gunzipMember(member: Buffer, label: string): Buffer {
  const flagsEnd = gzipHeaderLength(member);
  if (flagsEnd <= 0) throw new PackageError(label, undefined, 'corrupt gzip header');
  try {
    return inflateRawSync(member.subarray(flagsEnd), { maxOutputLength: MAX_CONTROL_SECTION });
  } catch (e) {
    throw new PackageError(label, undefined, `corrupt gzip stream (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** The length of a gzip member's header (RFC 1952: optional extra, name, comment, CRC); 0 if corrupt. */
function gzipHeaderLength(buf: Buffer): number {
  const flags = buf[3] ?? 0;
  let p = 10;
  if (flags & 4) p = buf.length >= 12 ? p + 2 + buf.readUInt16LE(p) : 0;
  if (flags & 8) p = p && buf.indexOf(0, p) + 1;
  if (flags & 16) p = p && buf.indexOf(0, p) + 1;
  if (flags & 2) p = p && p + 2;
  return p;
}

/** A signature stream holds only `.SIGN.*` entries; its first tar header names one. */
function isSignature(member: Buffer, label: string): boolean {
  const tar = gunzipMember(member, label);
  return tar.toString('latin1', 0, 6) === '.SIGN.';
}

function pkginfoFields(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const i = line.indexOf(' = ');
    if (i <= 0) continue;
    const k = line.slice(0, i);
    out.set(k, [...(out.get(k) ?? []), line.slice(i + 3)]);
  }
  return out;
}

/** Reads an .apk's .PKGINFO and checks its control section against the index's checksum. */
export async function readApkMeta(file: string, indexed: PackageMeta | undefined, keyring: Keyring): Promise<PackageMeta> {
  const label = basename(file);
  const s = await sections(file, label);
  await verifyApkSignature(keyring, s.signature, s.control, label, 'control');
  if (indexed?.checksum?.startsWith('Q1')) {
    const sum = `Q1${createHash('sha1').update(s.control).digest('base64')}`;
    if (sum !== indexed.checksum) throw new PackageError(label, 'control', `checksum ${sum} does not match APKINDEX (${indexed.checksum})`);
  }
  const found = await findInTar(Readable.from([gunzipMember(s.control, label)]), ['.PKGINFO'], MAX_PKGINFO, label, 'control');
  const info = found.get('.PKGINFO');
  if (!info) throw new PackageError(label, 'control', 'no .PKGINFO');
  const f = pkginfoFields(info.toString('utf8'));
  const one = (k: string) => f.get(k)?.[0];
  const name = one('pkgname');
  const version = one('pkgver');
  if (!name || !version) throw new PackageError(label, '.PKGINFO', 'pkgname and pkgver are required');
  if (indexed && (indexed.name !== name || indexed.version !== version)) {
    throw new PackageError(label, '.PKGINFO', `is ${name}-${version}, APKINDEX says ${indexed.name}-${indexed.version}`);
  }
  return {
    format: 'apk',
    name,
    version,
    arch: one('arch') ?? 'noarch',
    depends: (f.get('depend') ?? [])
      .map(parseApkDependency)
      .filter((d) => d !== undefined)
      .map((d) => [d]),
    provides: (f.get('provides') ?? []).map(parseApkDependency).filter((d) => d !== undefined),
    file,
    label,
    buildTime: Number(one('builddate') ?? 0) || 0,
    license: one('license'),
    description: one('pkgdesc'),
    origin: one('origin'),
    homepage: one('url'),
    checksum: indexed?.checksum,
    datahash: one('datahash'),
    installedSize: Number(one('size') ?? 0) || undefined,
    tag: indexed?.tag,
  };
}

/** The .apk's data tar, decompressed; the stream fails if the data does not match `datahash`. */
export async function openApkData(meta: PackageMeta): Promise<Readable> {
  const s = await sections(meta.file, meta.label);
  const hash = createHash('sha256');
  const want = meta.datahash;
  const check = new Transform({
    transform(chunk: Buffer, _e, cb) {
      hash.update(chunk);
      cb(null, chunk);
    },
    flush(cb) {
      const got = hash.digest('hex');
      cb(want && got !== want ? new PackageError(meta.label, 'data', `sha256 ${got} does not match its datahash ${want}`) : null);
    },
  });
  const raw = createReadStream(meta.file, { start: s.dataOffset });
  raw.on('error', (e) => check.destroy(e));
  return decompress(raw.pipe(check), 'gz', MAX_DATA, meta.label, 'data');
}

/** Parses the records of an APKINDEX (`P:`, `V:`, `A:`, `D:`, `p:`, `C:`, `t:` …). */
export function parseApkIndex(text: string, dir: string, tag: string | undefined): PackageMeta[] {
  const out: PackageMeta[] = [];
  for (const block of text.split(/\n\s*\n/)) {
    const f = new Map<string, string>();
    for (const line of block.split('\n')) if (line.length > 2 && line[1] === ':') f.set(line.slice(0, 1), line.slice(2));
    const name = f.get('P');
    const version = f.get('V');
    if (!name || !version) continue;
    const file = join(dir, `${name}-${version}.apk`);
    out.push({
      format: 'apk',
      name,
      version,
      arch: f.get('A') ?? 'noarch',
      depends: (f.get('D') ?? '')
        .split(' ')
        .filter(Boolean)
        .map(parseApkDependency)
        .filter((d) => d !== undefined)
        .map((d) => [d]),
      provides: (f.get('p') ?? '')
        .split(' ')
        .filter(Boolean)
        .map(parseApkDependency)
        .filter((d) => d !== undefined),
      file,
      label: basename(file),
      buildTime: Number(f.get('t') ?? 0) || 0,
      checksum: f.get('C'),
      license: f.get('L'),
      origin: f.get('o'),
      description: f.get('T'),
      homepage: f.get('U'),
      tag,
    });
  }
  return out;
}

/** Reads a repository directory's APKINDEX.tar.gz (checking its signature against the keyring). */
export async function readApkIndex(indexFile: string, tag: string | undefined, keyring: Keyring): Promise<PackageMeta[]> {
  const label = indexFile;
  if (keyring.size > 0) {
    const { size } = await stat(indexFile);
    if (size > MAX_INDEX) throw new PackageError(label, undefined, `larger than ${MAX_INDEX} bytes`);
    const bytes = await readFile(indexFile);
    const first = await gzipMemberEnd(bytes, 0, label);
    const signed = isSignature(bytes.subarray(0, first), label);
    await verifyApkSignature(keyring, signed ? bytes.subarray(0, first) : undefined, signed ? bytes.subarray(first) : bytes, label, 'index');
  }
  const tar = await decompress(createReadStream(indexFile), 'gz', MAX_INDEX, label, 'APKINDEX.tar.gz');
  const found = await findInTar(tar, ['APKINDEX'], MAX_INDEX, label, 'APKINDEX.tar.gz');
  const text = found.get('APKINDEX');
  if (!text) throw new PackageError(label, undefined, 'no APKINDEX entry');
  return parseApkIndex(text.toString('utf8'), join(indexFile, '..'), tag);
}
