import { closeSync, constants, openSync, readSync } from 'node:fs';
import { UserError } from '../errors.js';

/** Certificates, keys and bundles are a few KiB; anything past this is not one. */
export const MAX_PEM_BYTES = 1024 * 1024;

const ERRNO_TEXT: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
};

function decode(name: string, bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UserError(`${name}: not UTF-8 text`);
  }
}

/** Reads a text file of at most `limit` bytes; a larger file is refused, not truncated. */
export function readBoundedFile(path: string, limit = MAX_PEM_BYTES): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    throw new UserError(`open ${path}: ${ERRNO_TEXT[code] ?? (e as Error).message}`, { cause: e });
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for (;;) {
      const chunk = Buffer.alloc(64 * 1024);
      let n: number;
      try {
        n = readSync(fd, chunk, 0, chunk.length, null);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code ?? '';
        throw new UserError(`read ${path}: ${ERRNO_TEXT[code] ?? (e as Error).message}`, { cause: e });
      }
      if (n === 0) break;
      total += n;
      if (total > limit) throw new UserError(`${path}: larger than ${limit} bytes, not a certificate or key file`);
      chunks.push(chunk.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return decode(path, Buffer.concat(chunks));
}

/** Reads standard input, refusing more than `limit` bytes. */
export async function readBoundedStdin(limit = MAX_PEM_BYTES, stdin: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const c of stdin) {
    const chunk = typeof c === 'string' ? Buffer.from(c) : c;
    total += chunk.length;
    if (total > limit) throw new UserError(`<stdin>: larger than ${limit} bytes, not a certificate bundle`);
    chunks.push(chunk);
  }
  return decode('<stdin>', Buffer.concat(chunks));
}
