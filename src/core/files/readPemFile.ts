import { constants } from 'node:fs';
import { UserError } from '../errors.js';
import { readFileBounded, readStreamBounded } from '../input/boundedRead.js';
import { PEM_LIMIT } from '../input/limits.js';

/*
 * The one reader of certificate, key and bundle files (identity's commands, install's and
 * upgrade's identity file flags): bounded by PEM_LIMIT (1 MiB) and in time, decoded as strict
 * UTF-8, every failure naming the file.
 */

/**
 * How long a certificate file may take to read, like a kubeconfig file: a FIFO or a process
 * substitution whose writer never finishes is an error, not a hang.
 */
export const PEM_FILE_TIME_LIMIT_MS = 5_000;

function decode(name: string, bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UserError(`${name}: not UTF-8 text`);
  }
}

/**
 * A certificate, key or bundle file; a larger one is refused, not truncated. Opened non-blocking,
 * so a FIFO nobody writes to reads as empty instead of blocking in open(2); a slow writer is
 * waited for, up to `timeLimitMs`.
 */
export function readPemFile(path: string, timeLimitMs: number = PEM_FILE_TIME_LIMIT_MS): string {
  return decode(path, readFileBounded(path, PEM_LIMIT, path, constants.O_RDONLY | constants.O_NONBLOCK, timeLimitMs));
}

/** `-` reads standard input (refused past PEM_LIMIT), anything else the file. */
export async function readPemInput(path: string, stdin: NodeJS.ReadableStream = process.stdin): Promise<string> {
  if (path !== '-') return readPemFile(path);
  return decode('<stdin>', await readStreamBounded(stdin, PEM_LIMIT, '<stdin>'));
}
