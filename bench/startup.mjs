// Shared by the start-up benchmarks: time whole CLI processes against the floor of the same
// machine in the same run (`node -e 0`), alternating runs so drift hits both alike.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../', import.meta.url));
export const linkerd = `${root}bin/linkerd`;
export const runs = Number(process.env.BENCH_RUNS ?? 15);
export const FLOOR = ['-e', '0'];

/** Wall time of one `node <args>` process, in ms; a failing command fails the benchmark. */
export function once(args) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, KUBECONFIG: '/nonexistent' } });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
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
