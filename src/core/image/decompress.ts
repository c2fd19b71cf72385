import { PassThrough, Readable, Transform, type TransformCallback } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { formatBytes } from '../input/limits.js';
import { PackageError } from './packageError.js';
import { MAX_ZSTD_WINDOW, ZstdWindowGuard } from './zstdWindow.js';

export type Compression = 'gz' | 'xz' | 'zst' | 'none';

/** The compression named by a member's suffix (`control.tar.xz`), or undefined when unsupported. */
export function compressionOf(name: string): Compression | undefined {
  if (name.endsWith('.tar')) return 'none';
  if (name.endsWith('.gz')) return 'gz';
  if (name.endsWith('.xz')) return 'xz';
  if (name.endsWith('.zst')) return 'zst';
  return undefined;
}

/** Fails the stream once more than `limit` bytes passed: a decompression bomb stops here. */
export function byteLimit(limit: number, onExceed: () => Error): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb: TransformCallback) {
      seen += chunk.length;
      if (seen > limit) cb(onExceed());
      else cb(null, chunk);
    },
  });
}

async function zstdStream(input: Readable, refuse: (window: number) => Error): Promise<Transform> {
  const { Decompress } = await import('fzstd');
  const guard = new ZstdWindowGuard(MAX_ZSTD_WINDOW, refuse);
  // The transform's callbacks run only once data flows, after `d` exists.
  const out: Transform = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      try {
        d.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
        cb();
      } catch (e) {
        cb(e instanceof Error ? e : new Error(String(e)));
      }
    },
    flush(cb) {
      try {
        d.push(new Uint8Array(0), true);
        cb();
      } catch (e) {
        cb(e instanceof Error ? e : new Error(String(e)));
      }
    },
  });
  const d = new Decompress((chunk) => out.push(Buffer.from(chunk)));
  guard.on('error', (e) => out.destroy(e));
  return input.pipe(guard).pipe(out);
}

async function xzStream(input: Readable): Promise<Readable> {
  const { XzReadableStream } = await import('xz-decompress');
  const web: ReadableStream<Uint8Array> = Readable.toWeb(input);
  return Readable.fromWeb(new XzReadableStream(web));
}

/**
 * The decompressed bytes of `input`, at most `limit` of them. Errors (corrupt or truncated
 * data, too much output) surface on the returned stream as a PackageError naming `pkg`/`entry`.
 */
export async function decompress(input: Readable, kind: Compression, limit: number, pkg: string, entry: string): Promise<Readable> {
  let inner: Readable;
  if (kind === 'gz') inner = input.pipe(createGunzip());
  else if (kind === 'zst')
    inner = await zstdStream(
      input,
      (w) => new PackageError(pkg, entry, `zstd frame declares a ${w}-byte window, more than the ${formatBytes(MAX_ZSTD_WINDOW)} limit`),
    );
  else if (kind === 'xz') inner = await xzStream(input);
  else inner = input.pipe(new PassThrough());
  const limited = byteLimit(limit, () => new PackageError(pkg, entry, `decompresses to more than ${limit} bytes`));
  const fail = (e: unknown) => {
    const reason =
      e instanceof PackageError ? e : new PackageError(pkg, entry, `corrupt or truncated ${kind} data (${e instanceof Error ? e.message : String(e)})`);
    limited.destroy(reason);
  };
  input.on('error', fail);
  inner.on('error', fail);
  return inner.pipe(limited);
}
