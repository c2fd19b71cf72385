import type { Header, Pack } from 'tar-stream';

export type TarHeader = Partial<Header> & { name: string };

/** Adds one entry with an in-memory body (or none), resolving when tar-stream has taken it. */
export function addEntry(p: Pack, header: TarHeader, body?: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const cb = (err?: Error | null) => (err ? reject(err) : resolve());
    if (body) p.entry(header, body, cb);
    else p.entry(header, cb);
  });
}

/**
 * Runs `fill` to add the entries, then ends the archive and waits for `written` (the pipeline
 * from the pack stream to its file). On failure the pack is destroyed so the pipeline ends too.
 */
export async function writeTar(p: Pack, written: Promise<void>, fill: () => Promise<void>): Promise<void> {
  try {
    await fill();
    p.finalize();
    await written;
  } catch (e) {
    p.destroy(e instanceof Error ? e : new Error(String(e)));
    await written.catch(() => undefined);
    throw e;
  }
}
