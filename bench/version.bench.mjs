#!/usr/bin/env node
// `linkerd version --client` against the floor of the same machine, same run: `node -e 0`.
// Target: ≤ 1.5×. BENCH_RUNS sets the number of runs of each (default 15).
import { FLOOR, linkerd, medians, runs, verdict, withoutSnapshot } from './startup.mjs';

const command = [linkerd, 'version', '--client'];
const [floor, subject, bundle] = medians([FLOOR, command, withoutSnapshot(command)]);
console.log(`node -e 0                : median ${floor.toFixed(1)} ms (${runs} runs)`);
console.log(`linkerd version --client : median ${subject.toFixed(1)} ms (${runs} runs)`);
console.log(`  … without the snapshot  : median ${bundle.toFixed(1)} ms (${runs} runs, ${(bundle / floor).toFixed(2)}×)`);
console.log(verdict(subject / floor, 1.5));
