#!/usr/bin/env node
// `npm run bench`: runs every bench/*.bench.mjs in turn, each in its own process, and fails
// when any of them fails. Each benchmark prints its own ratios against a floor it measures.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('./', import.meta.url));
const benches = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.mjs'))
  .sort();
let failed = 0;
for (const file of benches) {
  console.log(`\n# ${file}`);
  const r = spawnSync(process.execPath, [`${dir}${file}`, ...process.argv.slice(2)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
if (failed) {
  console.error(`\n${failed} benchmark(s) failed`);
  process.exitCode = 1;
}
