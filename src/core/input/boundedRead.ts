import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { UserError } from '../errors.js';
import { errnoText } from '../files/errnoText.js';
import { type InputLimit, overLimitMessage } from './limits.js';

/*
 * The one way inputs are read: files (regular or not: /dev/zero and pipes have no size), streams
 * (standard input, HTTP bodies) and fetch bodies, each stopped as soon as it passes its limit.
 * Failures are one line naming the input, in Go's `open PATH: reason` words for the file system.
 */

const CHUNK = 64 * 1024;

/** `open X: no such file or directory`, `read X: is a directory`, … (Go's *PathError text). */
export function fileError(op: 'open' | 'read' | 'stat', path: string, e: unknown): UserError {
  return new UserError(`${op} ${path}: ${errnoText(e)}`, { cause: e });
}

function over(input: string, limit: InputLimit): UserError {
  return new UserError(overLimitMessage(input, limit));
}

/** Collects chunks until the limit; throws as soon as one byte more arrives. */
class Collector {
  private readonly chunks: Uint8Array[] = [];
  private total = 0;

  constructor(
    private readonly input: string,
    private readonly limit: InputLimit,
  ) {}

  add(chunk: Uint8Array): void {
    this.total += chunk.byteLength;
    if (this.total > this.limit.bytes) throw over(this.input, this.limit);
    this.chunks.push(chunk);
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.total);
  }
}

/** Longest pause between two reads of a non-blocking descriptor that had nothing to give. */
const MAX_PAUSE_MS = 50;
/** Made on first use: the start-up snapshot is built where SharedArrayBuffer does not exist. */
let pauseCell: Int32Array | undefined;

/** Sleeps this thread (the read is synchronous, so there is nothing else to do meanwhile). */
function pause(ms: number): void {
  pauseCell ??= new Int32Array(new SharedArrayBuffer(4));
  Atomics.wait(pauseCell, 0, 0, ms);
}

/**
 * All bytes of the open descriptor `fd` (opened from `path`), refused past `limit`. A descriptor
 * in non-blocking mode (a pipe or terminal a parent left so, or one opened with O_NONBLOCK) answers
 * EAGAIN while its writer is silent: the read then sleeps, 1 ms at first and up to 50 ms, instead
 * of asking again at once (which would burn a core for as long as the writer takes).
 */
function readFdBounded(fd: number, path: string, limit: InputLimit, input: string = path, timeLimitMs?: number): Buffer {
  const info = fstatSync(fd);
  if (info.isDirectory()) throw new UserError(`read ${path}: is a directory`);
  if (info.isFile() && info.size > limit.bytes) throw over(input, limit);
  const out = new Collector(input, limit);
  const deadline = timeLimitMs === undefined ? Infinity : performance.now() + timeLimitMs;
  let idleMs = 0;
  for (;;) {
    if (performance.now() > deadline) throw new UserError(`read ${path}: i/o timeout (no end of input within ${timeLimitMs} ms)`);
    const buf = Buffer.allocUnsafe(CHUNK);
    let n: number;
    try {
      n = readSync(fd, buf, 0, CHUNK, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw fileError('read', path, e);
      idleMs = Math.min(Math.max(1, idleMs * 2), MAX_PAUSE_MS);
      pause(idleMs);
      continue;
    }
    if (n === 0) return out.bytes();
    idleMs = 0;
    out.add(buf.subarray(0, n));
  }
}

/**
 * All bytes of the file at `path`, refused past `limit`. A directory is `read PATH: is a
 * directory`; `input` names the file in the limit message (defaults to the path). `flags` are
 * open(2)'s (read-only by default). With `timeLimitMs` (and O_NONBLOCK in `flags`, so a pipe
 * never blocks the thread), a writer that has not finished by then is an i/o timeout.
 */
export function readFileBounded(path: string, limit: InputLimit, input: string = path, flags: number = constants.O_RDONLY, timeLimitMs?: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, flags);
  } catch (e) {
    throw fileError('open', path, e);
  }
  try {
    return readFdBounded(fd, path, limit, input, timeLimitMs);
  } finally {
    closeSync(fd);
  }
}

/** The file at `path` as UTF-8 text, bounded like readFileBounded. */
export function readTextFileBounded(path: string, limit: InputLimit, input: string = path): string {
  return readFileBounded(path, limit, input).toString('utf8');
}

/** Everything a stream yields (standard input, an HTTP response), refused past `limit`. */
export async function readStreamBounded(stream: AsyncIterable<Uint8Array | string>, limit: InputLimit, input: string): Promise<Buffer> {
  const out = new Collector(input, limit);
  for await (const chunk of stream) out.add(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return out.bytes();
}

/**
 * A fetch Response's body, as decoded by fetch (gzip, deflate and br bodies are counted after
 * decoding, so a small compressed body cannot expand past the limit); the rest is cancelled.
 */
export async function readResponseBounded(res: Response, limit: InputLimit, input: string): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array();
  const reader: ReadableStreamDefaultReader<Uint8Array> = res.body.getReader();
  const out = new Collector(input, limit);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return out.bytes();
      out.add(value);
    }
  } catch (e) {
    await reader.cancel().catch(() => undefined);
    throw e;
  }
}
