import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { UserError } from '../errors.js';
import { PackageError } from './packageError.js';
import { readBody, tarEntries } from './tarEntries.js';

/*
 * apk signatures: a package's (or APKINDEX's) first gzip stream holds `.SIGN.RSA.<key>` (SHA-1)
 * or `.SIGN.RSA256.<key>` (SHA-256) — an RSA PKCS#1 v1.5 signature of the next gzip stream,
 * by the key whose file name is <key>. With a keyring, every apk package and index must carry a
 * signature that verifies against one of its keys.
 */

/** Public keys by file name (`wolfi-signing.rsa.pub`). Empty: signatures are not checked. */
export type Keyring = Map<string, KeyObject>;

const MAX_KEY = 64 << 10;

function isUrl(s: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(s);
}

/**
 * Loads contents.keyring: a path is read (relative to the config); a URL — which cannot be
 * fetched offline — is looked up by its file name in the --packages directories.
 */
export async function loadKeyring(entries: readonly string[], baseDir: string, packagesDirs: readonly string[], source: string): Promise<Keyring> {
  const ring: Keyring = new Map();
  for (const [i, entry] of entries.entries()) {
    const where = `${source}: contents.keyring[${i}]`;
    let file: string | undefined;
    if (isUrl(entry)) {
      const name = basename(new URL(entry).pathname);
      for (const d of packagesDirs) if ((await stat(join(d, name)).catch(() => undefined))?.isFile()) file = join(d, name);
      if (!file) throw new UserError(`${where}: ${entry} is a URL, and image build reads no network; put ${name} in the --packages directory`);
    } else file = isAbsolute(entry) ? entry : resolve(baseDir, entry);
    const st = await stat(file).catch(() => undefined);
    if (!st?.isFile() || st.size > MAX_KEY) throw new UserError(`${where}: ${file} is not a public key file`);
    try {
      ring.set(basename(file), createPublicKey(await readFile(file)));
    } catch (e) {
      throw new UserError(`${where}: ${file} is not a PEM public key (${e instanceof Error ? e.message : String(e)})`);
    }
  }
  return ring;
}

interface Signature {
  algorithm: 'sha1' | 'sha256';
  key: string;
  value: Buffer;
}

async function signaturesIn(member: Buffer, label: string): Promise<Signature[]> {
  const out: Signature[] = [];
  let tar: Buffer;
  try {
    tar = gunzipSync(member, { maxOutputLength: MAX_KEY * 4 });
  } catch {
    throw new PackageError(label, 'signature', 'corrupt signature stream');
  }
  for await (const entry of tarEntries(Readable.from([tar]), label, 'signature')) {
    const m = /^\.SIGN\.(RSA|RSA256)\.(.+)$/.exec(entry.header.name);
    const body = await readBody(entry, MAX_KEY, label);
    if (m?.[1] && m[2]) out.push({ algorithm: m[1] === 'RSA' ? 'sha1' : 'sha256', key: m[2], value: body });
  }
  return out;
}

/** Checks that `signed` carries a signature (in `signatureMember`) by a key of the ring. */
export async function verifyApkSignature(ring: Keyring, signatureMember: Buffer | undefined, signed: Buffer, label: string, what: string): Promise<void> {
  if (ring.size === 0) return;
  const sigs = signatureMember ? await signaturesIn(signatureMember, label) : [];
  if (sigs.length === 0) throw new PackageError(label, what, 'is not signed, and contents.keyring asks for signatures');
  const known = sigs.filter((s) => ring.has(s.key));
  if (known.length === 0) throw new PackageError(label, what, `is signed by ${sigs.map((s) => s.key).join(', ')}, not by a key in contents.keyring`);
  for (const s of known) {
    const key = ring.get(s.key);
    if (key && verify(s.algorithm, signed, key, s.value)) return;
  }
  throw new PackageError(label, what, `signature by ${known.map((s) => s.key).join(', ')} does not verify`);
}
