#!/usr/bin/env node
// `linkerd version --client` against the floor of the same machine, same run: `node -e 0`.
// Target: ≤ 1.5×. BENCH_RUNS sets the number of runs of each (default 15).
import { FLOOR, linkerd, medians, runs, verdict } from './startup.mjs';

const [floor, subject] = medians([FLOOR, [linkerd, 'version', '--client']]);
console.log(`node -e 0                : median ${floor.toFixed(1)} ms (${runs} runs)`);
console.log(`linkerd version --client : median ${subject.toFixed(1)} ms (${runs} runs)`);
console.log(verdict(subject / floor, 1.5));
