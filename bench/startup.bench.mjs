#!/usr/bin/env node
// Start-up of the commands CI calls most, each against the floor of the same machine and run
// (`node -e 0`), as bin/linkerd starts it (a constant output printed without node, or a V8
// start-up snapshot) and from the bundle (LINKERD_TS_NO_SNAPSHOT=1).
// Every turn runs the floor and then each case once, so drift on a shared machine hits all
// alike; a case's figure is the median of its per-turn ratios to that turn's floor. Output goes to
// /dev/null, as `linkerd install | kubectl apply` would not print it either. A command that is not
// registered (a family not merged yet) is skipped with a note, not failed.
// Targets: version and help ≤ 1.3×, install ≤ 2×, inject and analyze ≤ 1.5×; and `viz install` ≤ 1.2×
// `install` itself (the median of the per-turn ratios of the two, from the snapshot).
// BENCH_RUNS sets the number of turns (default 15). BENCH_COMPARE=<another checkout, built> adds
// its bin/linkerd as a third column, measured in the same turns (before/after figures).
// A reference row: an empty user snapshot (node's own heap in a blob, built here), what any start
// from a snapshot pays before the CLI's heap.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { FLOOR, linkerd, median, root, runs } from './startup.mjs';
import { workload } from './workload.mjs';

const { FAMILIES } = await import(pathToFileURL(path.join(root, 'dist/src/families/registry.js')).href);
const registered = new Map();
for (const f of FAMILIES) for (const c of f.commands) registered.set(c.name, c);

/** Whether `linkerd <words…>` names a registered command (and its subcommand, when one is named). */
async function isRegistered(words) {
  const top = registered.get(words[0]);
  if (!top) return false;
  if (words.length < 2) return true;
  // Declared in the family's index (viz) or listed by the command's module (multicluster).
  const subs = top.subcommands ?? (await top.load()).command.subcommands ?? [];
  return subs.some((s) => s.name === words[1] || s.aliases?.includes(words[1]));
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'linkerd-startup-'));
const small = path.join(tmp, 'one-workload.yaml');
writeFileSync(small, workload(0));

const cases = [
  { name: 'version --client', args: ['version', '--client'], target: 1.3 },
  { name: 'linkerd --help', args: ['--help'], target: 1.3, always: true },
  { name: 'install --ignore-cluster', args: ['install', '--ignore-cluster'], target: 2 },
  { name: 'inject <one workload>', args: ['inject', '--ignore-cluster', small], target: 1.5 },
  { name: 'viz --help', args: ['viz', '--help'], target: 1.3, needs: ['viz'] },
  { name: 'viz install --ignore-cluster', args: ['viz', 'install', '--ignore-cluster'], target: 2, needs: ['viz', 'install'] },
  { name: 'multicluster install --ignore-cluster', args: ['multicluster', 'install', '--ignore-cluster'], target: 2, needs: ['multicluster', 'install'] },
  { name: 'analyze <one workload>', args: ['analyze', small], target: 1.5, needs: ['analyze'] },
];

const compare = process.env.BENCH_COMPARE ? path.resolve(process.env.BENCH_COMPARE, 'bin/linkerd') : undefined;
const present = [];
for (const c of cases) {
  const words = c.needs ?? [c.args[0]];
  if (c.always || (await isRegistered(words))) present.push(c);
  else console.log(`skipped ${c.name}: \`linkerd ${words.join(' ')}\` is not registered in src/families/registry.ts`);
}

const devNull = openSync('/dev/null', 'w');
function once(command, env = {}) {
  const start = process.hrtime.bigint();
  const r = spawnSync(command[0], command.slice(1), {
    cwd: root,
    stdio: ['ignore', devNull, 'pipe'],
    env: { ...process.env, KUBECONFIG: '/nonexistent', ...env },
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${command.join(' ')} exited ${r.status}: ${r.error ?? r.stderr}`);
  return ms;
}

const emptyEntry = path.join(tmp, 'empty.cjs');
const emptyBlob = path.join(tmp, 'empty.blob');
writeFileSync(emptyEntry, "require('node:v8').startupSnapshot.setDeserializeMainFunction(() => {});\n");
spawnSync(process.execPath, ['--snapshot-blob', emptyBlob, '--build-snapshot', emptyEntry]);
const variants = [
  ...present.flatMap((c) => [
    { ...c, snapshot: true, command: [linkerd, ...c.args], env: {} },
    { ...c, snapshot: false, command: [linkerd, ...c.args], env: { LINKERD_TS_NO_SNAPSHOT: '1' } },
    ...(compare ? [{ ...c, snapshot: 'compare', command: [compare, ...c.args], env: {} }] : []),
  ]),
  { name: 'empty snapshot', snapshot: 'empty', command: [process.execPath, '--snapshot-blob', emptyBlob], env: {} },
];
// One warm-up run of each, then the turns.
once(FLOOR);
for (const v of variants) once(v.command, v.env);
const floors = [];
const ratios = variants.map(() => []);
const times = variants.map(() => []);
for (let i = 0; i < runs; i++) {
  const floor = once(FLOOR);
  floors.push(floor);
  variants.forEach((v, j) => {
    const ms = once(v.command, v.env);
    times[j].push(ms);
    ratios[j].push(ms / floor);
  });
}
closeSync(devNull);
rmSync(tmp, { recursive: true, force: true });

console.log(`node -e 0: median ${median(floors).toFixed(1)} ms (${runs} turns)`);
console.log(
  `command                                   launcher              bundle (LINKERD_TS_NO_SNAPSHOT=1)   target${compare ? `      ${process.env.BENCH_COMPARE}` : ''}`,
);
let missed = 0;
for (const c of present) {
  const [s, b] = [true, false].map((snap) => variants.findIndex((v) => v.name === c.name && v.snapshot === snap));
  const rs = median(ratios[s]);
  const rb = median(ratios[b]);
  const ok = rs <= c.target;
  if (!ok) missed++;
  const cell = (j, r) => `${median(times[j]).toFixed(0).padStart(4)} ms ${r.toFixed(2)}×`.padEnd(22);
  const k = variants.findIndex((v) => v.name === c.name && v.snapshot === 'compare');
  const other = k >= 0 ? `   ${cell(k, median(ratios[k]))}` : '';
  console.log(`${c.name.padEnd(42)}${cell(s, rs)}${cell(b, rb).padEnd(36)}${`≤ ${c.target}× ${ok ? 'OK' : 'MISSED'}`.padEnd(12)}${other}`);
}
// viz install against core install, turn by turn (both from the snapshot).
const vizAt = variants.findIndex((v) => v.name === 'viz install --ignore-cluster' && v.snapshot === true);
const installAt = variants.findIndex((v) => v.name === 'install --ignore-cluster' && v.snapshot === true);
if (vizAt >= 0 && installAt >= 0) {
  const r = median(times[vizAt].map((ms, i) => ms / times[installAt][i]));
  if (r > 1.2) missed++;
  console.log(`viz install / install (same turns)         ${r.toFixed(2)}×${''.padEnd(52)}≤ 1.2× ${r <= 1.2 ? 'OK' : 'MISSED'}`);
}
const e = variants.length - 1;
console.log(`(an empty user snapshot, node's own heap in a blob: ${median(times[e]).toFixed(0)} ms ${median(ratios[e]).toFixed(2)}×)`);
console.log(`${missed ? `${missed} target(s) missed` : 'every target met'} (as bin/linkerd starts them; ratios are medians of per-turn ratios)`);
