import { terminalWord } from '../output/sanitize.js';

/*
 * What `linkerd __complete` prints. Candidates are data from elsewhere (a kubeconfig's context
 * names, an API server's namespaces): each line is made inert — escape sequences and control
 * characters removed from the candidate and from its description (after a tab, as cobra's
 * scripts read it). A TAB must not hang the shell: an answer not ready within
 * ANSWER_DEADLINE_MS is no answer at all (the shell then offers files).
 */

/**
 * How long a TAB waits for candidates at most, once the command tree is built (that is local work
 * that always ends; what can hang is reading a kubeconfig or asking a cluster): as long as the
 * namespaces' own cluster deadline. A loopback namespace list on a loaded machine was seen to take
 * over 0.8 s, so a second would cut real answers.
 */
export const ANSWER_DEADLINE_MS = 1_500;

/** One candidate line: `name` or `name<TAB>description`, both parts sanitised; '' when nothing is left of the name. */
export function candidateLine(candidate: string): string {
  const tab = candidate.indexOf('\t');
  const name = terminalWord(tab < 0 ? candidate : candidate.slice(0, tab));
  const description = tab < 0 ? '' : terminalWord(candidate.slice(tab + 1));
  if (name === '') return '';
  return description === '' ? name : `${name}\t${description}`;
}

/** The whole answer: one sanitised candidate per line. */
export function answerText(candidates: readonly string[]): string {
  return candidates
    .map(candidateLine)
    .filter((l) => l !== '')
    .map((l) => `${l}\n`)
    .join('');
}

/*
 * The watchdog runs on its own thread because what hangs may hold the main one: a synchronous
 * read of a FIFO blocks it in open(2), where no timer of ours fires, and process.exit() would wait
 * for such a thread forever. The cell says who got there first: 1 the answer, 2 the watchdog.
 */
const WATCHDOG = `
const { workerData } = require('node:worker_threads');
const cell = new Int32Array(workerData.cell);
setTimeout(() => {
  if (Atomics.compareExchange(cell, 0, 0, 2) === 0) process.kill(process.pid, 'SIGKILL');
}, workerData.ms);
`;

/**
 * Prints the candidates `work` finds, or ends the process with nothing printed once `ms` have
 * passed. Either way the process ends here, so nothing still pending (a socket, a read) keeps
 * the shell waiting.
 */
export async function answerWithin(ms: number, work: () => Promise<readonly string[]>): Promise<void> {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  // Fetched, not imported: the start-up snapshot cannot hold node:worker_threads.
  const threads = typeof process.getBuiltinModule === 'function' ? process.getBuiltinModule('node:worker_threads') : undefined;
  if (threads) new threads.Worker(WATCHDOG, { eval: true, workerData: { cell: cell.buffer, ms } }).unref();
  else setTimeout(() => Atomics.compareExchange(cell, 0, 0, 2) === 0 && process.exit(0), ms).unref();
  let text = '';
  try {
    text = answerText(await work());
  } catch {
    // A completion that fails offers nothing, like one that takes too long.
  }
  if (Atomics.compareExchange(cell, 0, 0, 1) !== 0) return;
  process.stdout.write(text, () => process.exit(0));
}
