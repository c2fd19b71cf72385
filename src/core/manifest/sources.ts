import { lstat, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../errors.js';
import { type FetchOptions, fetchUrl, isUrl } from './fetchUrl.js';

export { isUrl } from './fetchUrl.js';

/*
 * Where manifests come from, as `linkerd inject` reads them: `-` (stdin), an `https://` URL (see
 * fetchUrl.ts for the loopback exception), a file, or a directory walked recursively in lexical
 * order (every regular file, whatever its extension).
 */

export interface ManifestSource {
  /** The name used in messages: the path as given (or found in a directory), the URL, or `<stdin>`. */
  readonly name: string;
  readonly text: string;
}

export interface SourceReaders extends FetchOptions {
  /** All of standard input. */
  stdin?: () => Promise<Buffer>;
}

export const STDIN_NAME = '<stdin>';

/** All of standard input, as bytes (read once: a second read finds it at its end). */
export async function readAllStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin as AsyncIterable<Buffer | string>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** Text of a manifest: UTF-8, or one clear line saying why not. */
export function decodeManifest(name: string, bytes: Uint8Array): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new UserError(`${name}: UTF-16 text is not supported; convert it to UTF-8`);
  }
  if (bytes.subarray(0, 8192).includes(0)) throw new UserError(`${name}: binary data, not a YAML or JSON manifest`);
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new UserError(`${name}: binary data, not a YAML or JSON manifest (not valid UTF-8)`);
  }
}

async function readUrl(arg: string, readers: SourceReaders): Promise<ManifestSource> {
  return { name: arg, text: decodeManifest(arg, await fetchUrl(arg, readers)) };
}

function fsError(op: string, p: string, e: unknown): UserError {
  const code = (e as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : (e as Error).message;
  return new UserError(`${op} ${p}: ${why}`);
}

/** Regular files under `dir`, recursively, in lexical (byte) order of their names. */
async function walk(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    throw fsError('open', dir, e);
  }
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const out: string[] = [];
  for (const name of names) {
    const p = path.join(dir, name);
    const info = await lstat(p);
    if (info.isDirectory()) out.push(...(await walk(p)));
    else if (info.isFile()) out.push(p);
    else if (info.isSymbolicLink()) {
      // Followed to files; a link to a directory is not descended into (like filepath.Walk).
      const target = await stat(p).catch(() => undefined);
      if (target?.isFile()) out.push(p);
    }
  }
  return out;
}

async function readPath(p: string): Promise<ManifestSource[]> {
  let info;
  try {
    info = await stat(p);
  } catch (e) {
    throw fsError('stat', p, e);
  }
  const files = info.isDirectory() ? await walk(p) : [p];
  const out: ManifestSource[] = [];
  for (const f of files) {
    let bytes: Buffer;
    try {
      bytes = await readFile(f);
    } catch (e) {
      throw fsError('open', f, e);
    }
    out.push({ name: f, text: decodeManifest(f, bytes) });
  }
  return out;
}

/** Every input named on the command line, in order, each file of a directory as its own source. */
export async function readManifestSources(args: readonly string[], readers: SourceReaders = {}): Promise<ManifestSource[]> {
  if (args.length === 0) throw new UserError('please specify a kubernetes resource file');
  const out: ManifestSource[] = [];
  for (const arg of args) {
    if (arg === '-') {
      out.push({ name: STDIN_NAME, text: decodeManifest(STDIN_NAME, await (readers.stdin ?? readAllStdin)()) });
    } else if (isUrl(arg)) {
      out.push(await readUrl(arg, readers));
    } else {
      out.push(...(await readPath(arg)));
    }
  }
  return out;
}
