/**
 * Opens something that must be closed (a client, a port-forward), probes it, and closes it when
 * the probe fails, so a caller that gets an error has nothing left open. Errors are the ones
 * `open` and `probe` threw; callers word them.
 */
export async function openProbed<T extends { close(): void }>(open: () => Promise<T>, probe: (opened: T) => Promise<unknown>): Promise<T> {
  const opened = await open();
  try {
    await probe(opened);
  } catch (e) {
    opened.close();
    throw e;
  }
  return opened;
}
