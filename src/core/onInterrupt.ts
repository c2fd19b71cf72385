/*
 * What to undo if the process ends before the work does: temporary files to remove, child processes
 * to kill. While anything is registered, a signal (SIGINT, SIGTERM, SIGHUP) runs every cleanup, then
 * is raised again with the handlers removed, so the process ends as the signal would have ended it
 * (a shell reports 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP); process.exit() (e.g. on a
 * closed stdout) runs them too. With nothing registered, no handler is installed and signals keep
 * their default effect.
 */

/** The signals that mean "stop" to a command line tool. */
export const INTERRUPT_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const cleanups = new Set<() => void>();

function listen(on: boolean): void {
  for (const s of INTERRUPT_SIGNALS) {
    if (on) process.on(s, onSignal);
    else process.removeListener(s, onSignal);
  }
  if (on) process.on('exit', runCleanups);
  else process.removeListener('exit', runCleanups);
}

function runCleanups(): void {
  const pending = [...cleanups];
  cleanups.clear();
  listen(false);
  for (const cleanup of pending) {
    try {
      cleanup();
    } catch {
      // best effort: the others still run, and the process still ends
    }
  }
}

function onSignal(signal: NodeJS.Signals): void {
  runCleanups();
  process.kill(process.pid, signal);
}

/**
 * Runs `cleanup` (synchronously) if the process is interrupted or exits before the returned
 * function is called; calling that unregisters the cleanup without running it.
 */
export function onInterrupt(cleanup: () => void): () => void {
  const entry = () => {
    cleanup();
  };
  if (cleanups.size === 0) listen(true);
  cleanups.add(entry);
  return () => {
    if (cleanups.delete(entry) && cleanups.size === 0) listen(false);
  };
}
