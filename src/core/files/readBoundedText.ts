import { constants } from 'node:fs';
import { UserError } from '../errors.js';
import { readFileBounded, readStreamBounded } from '../input/boundedRead.js';
import { PEM_LIMIT } from '../input/limits.js';

/*
 * Certificates, keys and bundles for the identity commands: read through the one bounded reader
 * (PEM_LIMIT), then decoded as strict UTF-8.
 */

function decode(name: string, bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UserError(`${name}: not UTF-8 text`);
  }
}

/**
 * Reads a certificate or key file; a larger one is refused, not truncated. Opened non-blocking, so
 * a FIFO nobody writes to reads as empty instead of hanging; a slow writer is waited for.
 */
export function readBoundedFile(path: string): string {
  return decode(path, readFileBounded(path, PEM_LIMIT, path, constants.O_RDONLY | constants.O_NONBLOCK));
}

/** Reads standard input, refused past PEM_LIMIT. */
export async function readBoundedStdin(stdin: NodeJS.ReadableStream = process.stdin): Promise<string> {
  return decode('<stdin>', await readStreamBounded(stdin, PEM_LIMIT, '<stdin>'));
}
