// Shared by the start-up benchmarks: time whole CLI processes against the floor of the same
// machine in the same run (`node -e 0`), alternating runs so drift hits both alike.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../', import.meta.url));
export const linkerd = `${root}bin/linkerd`;
export const runs = Number(process.env.BENCH_RUNS ?? 15);
/** The floor: the node that runs the benchmark (the one bin/linkerd finds on PATH), doing nothing. */
export const FLOOR = [process.execPath, '-e', '0'];

/** The same command, started without the V8 start-up snapshot (the ES-module bundle). */
export const withoutSnapshot = (command) => Object.assign([...command], { env: { LINKERD_TS_NO_SNAPSHOT: '1' } });

/**
 * Wall time of one process, in ms: `[program, ...args]` run as a user runs it (bin/linkerd is
 * executed, so its launcher counts); a failing command fails the benchmark.
 */
export function once(command) {
  const env = { ...process.env, KUBECONFIG: '/nonexistent', ...command.env };
  const start = process.hrtime.bigint();
  const r = spawnSync(command[0], command.slice(1), { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${command.join(' ')} exited ${r.status}: ${r.error ?? r.stderr}`);
  return ms;
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Median of `runs` interleaved runs of each command (after one warm-up run each). */
export function medians(commands) {
  for (const args of commands) once(args);
  const times = commands.map(() => []);
  for (let i = 0; i < runs; i++) commands.forEach((args, j) => times[j].push(once(args)));
  return times.map(median);
}

export function verdict(ratio, target) {
  return `ratio ${ratio.toFixed(2)}× (target ≤ ${target}×) ${ratio <= target ? 'OK' : 'MISSED'}`;
}
