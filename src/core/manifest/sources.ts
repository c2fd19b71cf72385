import { createReadStream } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../errors.js';
import { fileError, readStreamBounded } from '../input/boundedRead.js';
import { type InputLimit, MANIFEST_LIMIT, overLimitMessage } from '../input/limits.js';
import { type FetchOptions, fetchUrl, isUrl } from './fetchUrl.js';
import { redactedUrl } from '../net/redactedUrl.js';

export { isUrl } from './fetchUrl.js';

/*
 * Where manifests come from, as `linkerd inject` reads them: `-` (stdin), an `https://` URL (see
 * fetchUrl.ts for the loopback exception), a file, or a directory walked recursively in lexical
 * order. Files are read in chunks when they are processed, so a large file is never held whole.
 *
 * In a directory, what linkerd's walk opens and reads is read: regular files and symbolic links to
 * regular files. What it would fail on or hang on — a dangling link, a link to a directory, a FIFO,
 * a socket or a device (or a link to one) — is skipped and named on stderr instead.
 */

/** A text that has been read: a whole input, or one slice of one. */
export interface ManifestSource {
  /** The name used in messages: the path as given (or found in a directory), the URL, or `<stdin>`. */
  readonly name: string;
  readonly text: string;
  /** Lines of the input before this text (a slice of a larger input): error lines are the input's. */
  readonly lineOffset?: number;
}

/** An input to be read: its name and its text, decoded chunk by chunk. */
export interface ManifestInput {
  readonly name: string;
  /** The text in chunks; may be called again for a second pass. */
  chunks(): AsyncIterable<string>;
}

/** A directory entry that is not read, and why. */
export interface SkippedEntry {
  path: string;
  reason: string;
}

export interface ManifestInputs {
  inputs: ManifestInput[];
  skipped: SkippedEntry[];
}

export interface SourceReaders extends FetchOptions {
  /** All of standard input. */
  stdin?: () => Promise<Buffer>;
}

export const STDIN_NAME = '<stdin>';

/** All of standard input, as bytes, up to `limit` (read once: a second read finds it at its end). */
export async function readAllStdin(limit: InputLimit = MANIFEST_LIMIT): Promise<Buffer> {
  return readStreamBounded(process.stdin, limit, STDIN_NAME);
}

/** Bytes checked for NUL before calling an input binary. */
const SNIFF_BYTES = 8192;

/**
 * Decodes an input's bytes chunk by chunk: UTF-8 (a byte-order mark is kept), or one clear line
 * saying why not.
 */
export class ManifestDecoder {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private seen = 0;

  constructor(private readonly name: string) {}

  decode(bytes: Uint8Array, last = false): string {
    if (this.seen === 0 && bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
      throw new UserError(`${this.name}: UTF-16 text is not supported; convert it to UTF-8`);
    }
    if (this.seen < SNIFF_BYTES && bytes.subarray(0, SNIFF_BYTES - this.seen).includes(0)) {
      throw new UserError(`${this.name}: binary data, not a YAML or JSON manifest`);
    }
    this.seen += bytes.length;
    try {
      return this.decoder.decode(bytes, { stream: !last });
    } catch {
      throw new UserError(`${this.name}: binary data, not a YAML or JSON manifest (not valid UTF-8)`);
    }
  }
}

/** Text of a manifest held whole: UTF-8, or one clear line saying why not. */
export function decodeManifest(name: string, bytes: Uint8Array): string {
  return new ManifestDecoder(name).decode(bytes, true);
}

/** Bytes decoded per chunk. */
const CHUNK_BYTES = 1 << 16;

/**
 * Input held as bytes (stdin, a URL's body): checked whole now, so a bad input is refused before
 * anything else, and decoded a chunk at a time when read, so its text is never held whole.
 */
function memoryInput(name: string, bytes: Uint8Array): ManifestInput {
  decodeManifest(name, bytes);
  return {
    name,
    // eslint-disable-next-line @typescript-eslint/require-await -- the shape every input shares
    chunks: async function* () {
      const decoder = new ManifestDecoder(name);
      for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
        const text = decoder.decode(bytes.subarray(at, at + CHUNK_BYTES), at + CHUNK_BYTES >= bytes.length);
        if (text !== '') yield text;
      }
    },
  };
}

/** A file, decoded as it is read. */
export function fileInput(file: string): ManifestInput {
  return {
    name: file,
    chunks: async function* () {
      const decoder = new ManifestDecoder(file);
      let size = 0;
      try {
        // A regular file is refused by its size before a byte is read (a sparse 600 MB file is not
        // "binary data"); a device or FIFO has no size, so it is counted while read.
        const info = await stat(file);
        if (info.isFile() && info.size > MANIFEST_LIMIT.bytes) throw new UserError(overLimitMessage(file, MANIFEST_LIMIT));
        for await (const chunk of createReadStream(file, { highWaterMark: 1 << 16 })) {
          size += (chunk as Buffer).length;
          // Checked while reading: /dev/zero or a FIFO has no size to check first.
          if (size > MANIFEST_LIMIT.bytes) throw new UserError(overLimitMessage(file, MANIFEST_LIMIT));
          const text = decoder.decode(chunk as Buffer);
          if (text !== '') yield text;
        }
      } catch (e) {
        if (e instanceof UserError) throw e;
        throw fileError('read', file, e);
      }
      const rest = decoder.decode(new Uint8Array(0), true);
      if (rest !== '') yield rest;
    },
  };
}

/**
 * An input that cannot be read twice (a pipe, a FIFO, `/dev/stdin`, a process substitution): the
 * text the first pass reads is kept for the next one (as standard input's is), so `inject --manual`,
 * which reads its inputs twice, does not find it empty the second time.
 */
function replayable(input: ManifestInput): ManifestInput {
  let kept: string[] | undefined;
  return {
    name: input.name,
    chunks: async function* () {
      if (kept) {
        yield* kept;
        return;
      }
      const seen: string[] = [];
      for await (const text of input.chunks()) {
        seen.push(text);
        yield text;
      }
      kept = seen;
    },
  };
}

function kindOf(info: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  if (info.isFIFO()) return 'a named pipe';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** Regular files under `dir` (and links to them), recursively, in lexical (byte) order of their names. */
async function walk(dir: string, skipped: SkippedEntry[]): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    throw fileError('open', dir, e);
  }
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const out: string[] = [];
  for (const name of names) {
    const p = path.join(dir, name);
    const info = await lstat(p);
    if (info.isDirectory()) out.push(...(await walk(p, skipped)));
    else if (info.isFile()) out.push(p);
    else if (info.isSymbolicLink()) {
      const target = await stat(p).catch(() => undefined);
      if (!target) skipped.push({ path: p, reason: 'a dangling symbolic link' });
      // Not descended into, as linkerd's walk does not follow links to directories.
      else if (target.isDirectory()) skipped.push({ path: p, reason: 'a symbolic link to a directory' });
      else if (target.isFile()) out.push(p);
      else skipped.push({ path: p, reason: `a symbolic link to ${kindOf(target)}` });
    } else {
      skipped.push({ path: p, reason: kindOf(info) });
    }
  }
  return out;
}

async function readPath(p: string, skipped: SkippedEntry[]): Promise<ManifestInput[]> {
  let info;
  try {
    info = await stat(p);
  } catch (e) {
    throw fileError('stat', p, e);
  }
  if (!info.isDirectory()) return [info.isFile() ? fileInput(p) : replayable(fileInput(p))];
  const before = skipped.length;
  const files = await walk(p, skipped);
  if (files.length === 0) {
    const n = skipped.length - before;
    throw new UserError(`${p}: no files to read in this directory${n > 0 ? ` (${n} ${n === 1 ? 'entry' : 'entries'} skipped)` : ''}`);
  }
  return files.map(fileInput);
}

/** Every input named on the command line, in order, each file of a directory as its own input. */
export async function listManifestInputs(args: readonly string[], readers: SourceReaders = {}): Promise<ManifestInputs> {
  if (args.length === 0) throw new UserError('please specify a kubernetes resource file', { usage: true });
  const inputs: ManifestInput[] = [];
  const skipped: SkippedEntry[] = [];
  for (const arg of args) {
    if (arg === '-') inputs.push(memoryInput(STDIN_NAME, await (readers.stdin ?? readAllStdin)()));
    else if (isUrl(arg)) inputs.push(memoryInput(redactedUrl(arg), await fetchUrl(arg, { limit: MANIFEST_LIMIT, ...readers })));
    else inputs.push(...(await readPath(arg, skipped)));
  }
  return { inputs, skipped };
}

/** The whole text of an input. */
export async function inputText(input: ManifestInput): Promise<string> {
  let text = '';
  for await (const chunk of input.chunks()) text += chunk;
  return text;
}

/** Every input read whole (small inputs, tests). */
export async function readManifestSources(args: readonly string[], readers: SourceReaders = {}): Promise<ManifestSource[]> {
  const { inputs } = await listManifestInputs(args, readers);
  return Promise.all(inputs.map(async (i) => ({ name: i.name, text: await inputText(i) })));
}
