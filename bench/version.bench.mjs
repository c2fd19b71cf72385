#!/usr/bin/env node
// `linkerd version --client` against the floor of the same machine, same run: `node -e 0`.
// Target: ≤ 1.5×. Runs alternate between the two commands so drift hits both alike.
// BENCH_RUNS sets the number of runs of each (default 15).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 15);
const TARGET = 1.5;

function once(args) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, KUBECONFIG: '/nonexistent' } });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const subject = [`${root}bin/linkerd`, 'version', '--client'];
once(['-e', '0']); // warm the file cache
once(subject);
const floor = [];
const times = [];
for (let i = 0; i < runs; i++) {
  floor.push(once(['-e', '0']));
  times.push(once(subject));
}
const ratio = median(times) / median(floor);
console.log(`node -e 0                : median ${median(floor).toFixed(1)} ms (${runs} runs)`);
console.log(`linkerd version --client : median ${median(times).toFixed(1)} ms (${runs} runs)`);
console.log(`ratio ${ratio.toFixed(2)}× (target ≤ ${TARGET}×) ${ratio <= TARGET ? 'OK' : 'MISSED'}`);
