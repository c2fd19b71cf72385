import type { Readable } from 'node:stream';
import { extract, type Extract } from 'tar-stream';

/** One entry of a tar stream: its header and a readable body. */
export type Entry = Extract extends AsyncIterable<infer S> ? S : never;
import { PackageError } from './packageError.js';

const MAX_ENTRIES = 1_000_000;

/**
 * The entries of a tar stream, one at a time (each body must be consumed or drained before the
 * next). A truncated or corrupt tar ends in a PackageError naming the package and the last entry.
 */
export async function* tarEntries(input: Readable, pkg: string, what: string): AsyncGenerator<Entry> {
  const ex = extract();
  let last: string | undefined;
  let failure: unknown;
  input.on('error', (e) => {
    failure = e;
    ex.destroy(e);
  });
  input.pipe(ex);
  let n = 0;
  try {
    for await (const entry of ex) {
      if (++n > MAX_ENTRIES) throw new PackageError(pkg, what, `more than ${MAX_ENTRIES} entries`);
      last = entry.header.name;
      yield entry;
      entry.resume();
    }
  } catch (e) {
    const cause = failure ?? e;
    if (cause instanceof PackageError) throw cause;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new PackageError(pkg, last === undefined ? what : `${what} ${last}`, `corrupt or truncated archive (${reason})`);
  } finally {
    input.unpipe(ex);
    if (!input.destroyed) input.destroy();
  }
}

/** Reads the whole body of an entry, refusing more than `max` bytes. */
export async function readBody(entry: Entry, max: number, pkg: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of entry as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw new PackageError(pkg, entry.header.name, `larger than ${max} bytes`);
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}

/** The body of the first entry whose name (without `./`) is one of `names`, or undefined. */
export async function findInTar(input: Readable, names: string[], max: number, pkg: string, what: string): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>();
  for await (const entry of tarEntries(input, pkg, what)) {
    const name = entry.header.name.replace(/^\.\//, '');
    if (names.includes(name) && entry.header.type === 'file') found.set(name, await readBody(entry, max, pkg));
  }
  return found;
}
