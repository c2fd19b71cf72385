import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';

/**
 * Small .deb and .apk files made in the tests, byte by byte (ar, tar, gzip/xz/zstd), so every
 * field — and every hostile entry — is under the test's control.
 */

export interface TarItem {
  name: string;
  type?: 'file' | 'directory' | 'symlink' | 'link' | 'character-device' | 'fifo';
  content?: string | Buffer;
  mode?: number;
  uid?: number;
  gid?: number;
  linkname?: string;
}

export async function tarBuffer(items: TarItem[], mtime = 1_700_000_000): Promise<Buffer> {
  const p = pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const c of p) chunks.push(Buffer.from(c as Uint8Array));
  })();
  for (const it of items) {
    const type = it.type ?? 'file';
    const body = type === 'file' ? Buffer.from(it.content ?? '') : undefined;
    const header = {
      name: it.name,
      type,
      mode: it.mode ?? (type === 'directory' ? 0o755 : type === 'symlink' ? 0o777 : 0o644),
      uid: it.uid ?? 0,
      gid: it.gid ?? 0,
      mtime: new Date(mtime * 1000),
      linkname: it.linkname,
      size: body?.length ?? 0,
    };
    await new Promise<void>((resolve, reject) => {
      const cb = (e?: Error | null) => (e ? reject(e) : resolve());
      if (body) p.entry(header, body, cb);
      else p.entry(header, cb);
    });
  }
  p.finalize();
  await done;
  return Buffer.concat(chunks);
}

export function compress(buf: Buffer, kind: 'gz' | 'xz' | 'zst' | 'none'): Buffer {
  if (kind === 'gz') return gzipSync(buf);
  if (kind === 'xz') return execFileSync('xz', ['-c', '-T1'], { input: buf });
  if (kind === 'zst') return execFileSync('zstd', ['-q', '-c'], { input: buf });
  return buf;
}

export function arArchive(members: { name: string; data: Buffer; mtime?: number }[]): Buffer {
  const parts: Buffer[] = [Buffer.from('!<arch>\n')];
  for (const m of members) {
    const h = `${m.name.padEnd(16)}${String(m.mtime ?? 1_700_000_000).padEnd(12)}${'0'.padEnd(6)}${'0'.padEnd(6)}${'100644'.padEnd(8)}${String(m.data.length).padEnd(10)}\`\n`;
    parts.push(Buffer.from(h, 'latin1'), m.data);
    if (m.data.length % 2) parts.push(Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}

export interface DebSpec {
  name: string;
  version?: string;
  arch?: string;
  depends?: string;
  preDepends?: string;
  provides?: string;
  files?: TarItem[];
  compression?: 'gz' | 'xz' | 'zst' | 'none';
  mtime?: number;
}

/** Writes NAME_VERSION_ARCH.deb into `dir` and returns its path. */
export async function makeDeb(dir: string, s: DebSpec): Promise<string> {
  const version = s.version ?? '1.0-1';
  const arch = s.arch ?? 'amd64';
  const fields = [`Package: ${s.name}`, `Version: ${version}`, `Architecture: ${arch}`, 'Maintainer: Test <test@example.com>'];
  if (s.preDepends) fields.push(`Pre-Depends: ${s.preDepends}`);
  if (s.depends) fields.push(`Depends: ${s.depends}`);
  if (s.provides) fields.push(`Provides: ${s.provides}`);
  fields.push(`Description: test package ${s.name}`, ' A package made by the tests.');
  const kind = s.compression ?? 'gz';
  const ext = kind === 'none' ? '' : `.${kind}`;
  const control = compress(
    await tarBuffer([
      { name: './', type: 'directory' },
      { name: './control', content: `${fields.join('\n')}\n` },
    ]),
    kind,
  );
  const data = compress(await tarBuffer([{ name: './', type: 'directory' }, ...(s.files ?? [])], s.mtime), kind);
  const file = join(dir, `${s.name}_${version}_${arch}.deb`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    file,
    arArchive([
      { name: 'debian-binary', data: Buffer.from('2.0\n') },
      { name: `control.tar${ext}`, data: control },
      { name: `data.tar${ext}`, data, mtime: s.mtime },
    ]),
  );
  return file;
}

export interface ApkSpec {
  name: string;
  version?: string;
  arch?: string;
  depends?: string[];
  provides?: string[];
  files?: TarItem[];
  builddate?: number;
  /** false: no signature stream; a key: a real `.SIGN.RSA256.<name>` signature; default: a dummy one. */
  signed?: boolean | SigningKey;
}

/** An RSA key pair for apk signatures; `name` is the public key's file name (`test.rsa.pub`). */
export interface SigningKey {
  name: string;
  privateKey: KeyObject;
  publicPem: string;
}

export function signingKey(name = 'test.rsa.pub'): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { name, privateKey, publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

async function signatureStream(signed: Buffer, key: boolean | SigningKey | undefined): Promise<Buffer[]> {
  if (key === false) return [];
  const entry =
    typeof key === 'object'
      ? { name: `.SIGN.RSA256.${key.name}`, content: sign('sha256', signed, key.privateKey) }
      : { name: '.SIGN.RSA.test.rsa.pub', content: Buffer.alloc(256, 7) };
  return [gzipSync(await cutTar([entry]))];
}

/** A tar without its end-of-archive blocks, as abuild cuts the sections of an .apk. */
async function cutTar(items: TarItem[], mtime?: number): Promise<Buffer> {
  const t = await tarBuffer(items, mtime);
  return t.subarray(0, t.length - 1024);
}

export interface BuiltApk {
  file: string;
  /** The APKINDEX record. */
  record: string;
}

/** Writes NAME-VERSION.apk into `dir` (signature, control and data gzip streams). */
export async function makeApk(dir: string, s: ApkSpec): Promise<BuiltApk> {
  const version = s.version ?? '1.0-r0';
  const arch = s.arch ?? 'x86_64';
  const builddate = s.builddate ?? 1_700_000_000;
  const data = gzipSync(await tarBuffer(s.files ?? [], builddate));
  const datahash = createHash('sha256').update(data).digest('hex');
  const info = [`pkgname = ${s.name}`, `pkgver = ${version}`, `arch = ${arch}`, `builddate = ${builddate}`, 'license = MIT', `origin = ${s.name}`];
  for (const d of s.depends ?? []) info.push(`depend = ${d}`);
  for (const p of s.provides ?? []) info.push(`provides = ${p}`);
  info.push(`datahash = ${datahash}`);
  const control = gzipSync(await cutTar([{ name: '.PKGINFO', content: `${info.join('\n')}\n` }], builddate));
  const parts = [...(await signatureStream(control, s.signed)), control, data];
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${s.name}-${version}.apk`);
  writeFileSync(file, Buffer.concat(parts));
  const record = [
    `C:Q1${createHash('sha1').update(control).digest('base64')}`,
    `P:${s.name}`,
    `V:${version}`,
    `A:${arch}`,
    `S:${parts.reduce((n, b) => n + b.length, 0)}`,
    `T:test package ${s.name}`,
    'L:MIT',
    `o:${s.name}`,
    `t:${builddate}`,
    ...(s.depends?.length ? [`D:${s.depends.join(' ')}`] : []),
    ...(s.provides?.length ? [`p:${s.provides.join(' ')}`] : []),
  ].join('\n');
  return { file, record };
}

/** Writes DIR/APKINDEX.tar.gz for the given records (with a signature stream, like apk's). */
export async function writeApkIndex(dir: string, records: string[], key?: SigningKey): Promise<void> {
  const index = gzipSync(
    await tarBuffer([
      { name: 'DESCRIPTION', content: 'test' },
      { name: 'APKINDEX', content: `${records.join('\n\n')}\n\n` },
    ]),
  );
  writeFileSync(join(dir, 'APKINDEX.tar.gz'), Buffer.concat([...(await signatureStream(index, key ?? true)), index]));
}
