#!/usr/bin/env node
// `linkerd inject --manual` over a generated manifest of 10,000 workloads, against the floor of the
// same run: parsing and re-stringifying that file with the same YAML library (`yaml`'s
// parseAllDocuments + toString); the library's CST round trip (Parser + CST.stringify) is shown
// beside it. Targets: time ≤ 0.6× the floor at 10,000 workloads (issue 10; the earlier target was
// 1.5×), linear growth (≤ 11× the time for 10× the workloads), peak RSS ≤ 1.2× the floor's, and
// flat memory from 10,000 to 40,000 workloads (≤ 1.15×, measured with the heap capped at 96 MB so
// that it is what is kept, not how much garbage V8 lets pile up before collecting). Each
// measurement runs in a fresh process writing the manifest to /dev/null, so its peak RSS is its own;
// inject runs as bin/linkerd runs it, from the bundle (`npm run build` first), through the CLI. BENCH_RUNS sets the runs per case (default 5;
// the timed cases at the large size run in turns, see paired(); 1 run at the largest size);
// BENCH_WORKLOADS the large size (default 10000). Inject runs as it would for a user (worker
// threads past 2 MiB, injectPool.ts) and on one thread (LINKERD_TS_INJECT_WORKERS=0).
// The varied case (issue 22): BENCH_WORKLOADS workloads that differ from each other
// (workload.mjs's variedWorkload: about 21 MB at 10,000), timed in-process as above and as a whole
// process (`bin/linkerd inject --manual --ignore-cluster FILE > /dev/null`, from the snapshot as the
// launcher picks it), each against the floor of the same turn measured the same way (its time inside
// the process, or its process's wall time). BENCH_CASES=varied or BENCH_CASES=identical runs one
// of the two; BENCH_COMPARE=<another built checkout> adds its bin/linkerd to the varied turns.
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './startup.mjs';
import { variedWorkload, workload } from './workload.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const self = fileURLToPath(import.meta.url);
const TARGET_RATIO = 0.6;
const TARGET_SCALING = 11;
const TARGET_RSS_RATIO = 1.2;
const TARGET_RSS_FLAT = 1.15;
const CAPPED_HEAP_MB = 96;

// ---------------------------------------------------------------- child: one measurement

if (process.argv[2] === '--child') {
  const [mode, file] = process.argv.slice(3);
  const anchors = path.join(root, 'fixtures/certs/valid-trust-anchors.pem');
  let ms;
  let bytes;
  const devNull = createWriteStream('/dev/null');
  if (mode === 'floor' || mode === 'cst') {
    const { parseAllDocuments, Parser, CST } = await import(pathToFileURL(path.join(root, 'node_modules/yaml/dist/index.js')).href);
    const t0 = performance.now();
    const text = readFileSync(file, 'utf8');
    const out =
      mode === 'floor'
        ? parseAllDocuments(text)
            .map((d) => d.toString())
            .join('')
        : Array.from(new Parser().parse(text), (t) => CST.stringify(t)).join('');
    devNull.write(out);
    ms = performance.now() - t0;
    bytes = out.length;
  } else {
    // The CLI as bin/linkerd runs it: its bundle (dist/bundle), stdout on /dev/null, the report on stderr.
    const { main, loadAllCommands } = await import(pathToFileURL(path.join(root, 'dist/bundle/main.js')).href);
    // The commands' code is loaded before the clock starts, as the floor's yaml is.
    await loadAllCommands();
    bytes = 0;
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = (chunk, ...rest) => {
      bytes += chunk.length;
      return write(chunk, ...rest);
    };
    const t0 = performance.now();
    await main([
      process.execPath,
      'linkerd',
      'inject',
      '--ignore-cluster',
      '--identity-trust-anchors-file',
      anchors,
      ...(mode === 'manual' ? ['--manual'] : []),
      file,
    ]);
    ms = performance.now() - t0;
    if (process.exitCode) throw new Error(`inject exited ${process.exitCode}`);
  }
  // The figures go out on descriptor 3: stdout is the manifest's.
  writeSync(3, JSON.stringify({ ms, bytes, rssMB: process.resourceUsage().maxRSS / 1024 }));
  process.exit(0);
}

// ---------------------------------------------------------------- parent

function once(mode, file, heapMB = 4096, env = {}) {
  if (mode === 'cli') return cli(file, env);
  if (mode === 'compare') return cli(file, env, COMPARE);
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [`--max-old-space-size=${heapMB}`, self, '--child', mode, file], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${mode} ${file} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  return { ...JSON.parse(r.output[3]), wallMs };
}

/** `bin/linkerd inject --manual` as a user runs it, the manifest on /dev/null: its wall time. */
function cli(file, env, checkout = root) {
  const anchors = path.join(root, 'fixtures/certs/valid-trust-anchors.pem');
  const args = ['inject', '--manual', '--ignore-cluster', '--identity-trust-anchors-file', anchors, file];
  const start = process.hrtime.bigint();
  const r = spawnSync(path.join(checkout, 'bin/linkerd'), args, {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    env: { ...process.env, KUBECONFIG: '/nonexistent', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`bin/linkerd inject --manual ${file} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  return { ms: wallMs, wallMs, rssMB: NaN, bytes: NaN };
}

function summary(results) {
  return {
    ms: median(results.map((r) => r.ms)),
    wallMs: median(results.map((r) => r.wallMs)),
    rssMB: Math.max(...results.map((r) => r.rssMB)),
    bytes: results[0].bytes,
  };
}

function measure(mode, file, runs, heapMB = 4096, env = {}) {
  return summary(Array.from({ length: runs }, () => once(mode, file, heapMB, env)));
}

/**
 * The cases run in turns, each turn once each, so that a machine whose speed drifts (a shared VM
 * swings by a fifth from minute to minute) slows a case and its floor alike; a ratio is the median
 * of the turns' ratios.
 */
function paired(cases, file, runs) {
  const results = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let i = 0; i < runs; i++) for (const [k, c] of Object.entries(cases)) results[k].push(once(c.mode, file, 4096, c.env));
  /** `wall`: the processes' wall times (else the time inside each process). */
  const ratioTo = (k, base, wall = false) => median(results[k].map((r, i) => (wall ? r.wallMs / results[base][i].wallMs : r.ms / results[base][i].ms)));
  return { ...Object.fromEntries(Object.entries(results).map(([k, rs]) => [k, summary(rs)])), ratioTo };
}

const ONE_THREAD = { LINKERD_TS_INJECT_WORKERS: '0' };
/** BENCH_COMPARE=<another built checkout>: its bin/linkerd timed in the same turns of the varied case (a "before"). */
const COMPARE = process.env.BENCH_COMPARE ? path.resolve(process.env.BENCH_COMPARE) : undefined;
const runs = Number(process.env.BENCH_RUNS ?? 5);
const large = Number(process.env.BENCH_WORKLOADS ?? 10000);
const small = Math.max(1, Math.round(large / 10));
const dir = mkdtempSync(path.join(os.tmpdir(), 'linkerd-inject-bench-'));
const cases = process.env.BENCH_CASES ?? 'identical,varied';
const verdict = (ok) => (ok ? 'OK' : 'MISSED');
const row = (label, m) =>
  console.log(
    `${label.padEnd(52)}: median ${m.ms.toFixed(0).padStart(6)} ms, peak RSS ${m.rssMB.toFixed(0).padStart(4)} MB, output ${(m.bytes / 1e6).toFixed(1)} MB`,
  );

/** Near-identical workloads (workload.mjs's workload), in-process, at three sizes. */
function identical() {
  const files = {};
  const huge = large * 4;
  for (const n of [small, large, huge]) {
    files[n] = path.join(dir, `workloads-${n}.yaml`);
    writeFileSync(files[n], Array.from({ length: n }, (_, i) => workload(i)).join(''));
  }
  const mb = (n) => (readFileSync(files[n]).length / 1e6).toFixed(1);

  const at = paired(
    {
      floor: { mode: 'floor' },
      cst: { mode: 'cst' },
      manual: { mode: 'manual' },
      manualOne: { mode: 'manual', env: ONE_THREAD },
      annotate: { mode: 'annotate' },
      annotateOne: { mode: 'annotate', env: ONE_THREAD },
    },
    files[large],
    runs,
  );
  const manualSmall = measure('manual', files[small], runs);
  const manualHuge = measure('manual', files[huge], 1);
  // With the heap capped, peak RSS is what is kept, not how far V8 lets garbage pile up.
  const cappedLarge = measure('manual', files[large], 1, CAPPED_HEAP_MB);
  const cappedHuge = measure('manual', files[huge], 1, CAPPED_HEAP_MB);

  console.log(
    `input: ${small}, ${large} and ${huge} workloads (${mb(small)}, ${mb(large)} and ${mb(huge)} MB); ${runs} turns at ${large}, ${runs} runs at ${small}, 1 at ${huge}; ${os.availableParallelism()} cores`,
  );
  row(`floor: yaml parse + stringify, ${large}`, at.floor);
  row(`yaml CST round trip (Parser + CST.stringify), ${large}`, at.cst);
  row(`inject --manual, ${small}`, manualSmall);
  row(`inject --manual, ${large}`, at.manual);
  row(`inject --manual, ${large}, one thread`, at.manualOne);
  row(`inject --manual, ${huge}`, manualHuge);
  row(`inject (annotations), ${large}`, at.annotate);
  row(`inject (annotations), ${large}, one thread`, at.annotateOne);
  row(`inject --manual, ${large}, heap ≤ ${CAPPED_HEAP_MB} MB`, cappedLarge);
  row(`inject --manual, ${huge}, heap ≤ ${CAPPED_HEAP_MB} MB`, cappedHuge);
  const ratio = at.ratioTo('manual', 'floor');
  const scaling = at.manual.ms / manualSmall.ms;
  const rss = at.manual.rssMB / at.floor.rssMB;
  const flat = cappedHuge.rssMB / cappedLarge.rssMB;
  console.log(`CST round trip: ${at.ratioTo('cst', 'floor').toFixed(2)}× the floor`);
  console.log(`time, ratio to floor at ${large}: ${ratio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×) ${verdict(ratio <= TARGET_RATIO)}`);
  console.log(`  one thread: ${at.ratioTo('manualOne', 'floor').toFixed(2)}× the floor`);
  console.log(`scaling ${small} → ${large}: ${scaling.toFixed(2)}× for 10× the input (target ≤ ${TARGET_SCALING}×) ${verdict(scaling <= TARGET_SCALING)}`);
  console.log(`peak RSS, ratio to floor at ${large}: ${rss.toFixed(2)}× (target ≤ ${TARGET_RSS_RATIO}×) ${verdict(rss <= TARGET_RSS_RATIO)}`);
  console.log(
    `peak RSS ${large} → ${huge}, heap ≤ ${CAPPED_HEAP_MB} MB: ${flat.toFixed(2)}× for 4× the input (target ≤ ${TARGET_RSS_FLAT}×) ${verdict(flat <= TARGET_RSS_FLAT)}`,
  );
  console.log(`peak RSS ${large} → ${huge}, uncapped: ${(manualHuge.rssMB / at.manual.rssMB).toFixed(2)}× (V8 grows the heap with the work done)`);
  console.log(
    `annotation mode at ${large}: ${at.ratioTo('annotate', 'floor').toFixed(2)}× the floor (one thread ${at.ratioTo('annotateOne', 'floor').toFixed(2)}×)`,
  );
}

/**
 * Workloads that differ from each other (workload.mjs's variedWorkload), at the large size: in-process
 * against the floor's time inside its process, and bin/linkerd as a whole process against the floor
 * process's wall time, in the same turns.
 */
function varied() {
  const file = path.join(dir, `varied-${large}.yaml`);
  writeFileSync(file, Array.from({ length: large }, (_, i) => variedWorkload(i)).join(''));
  const at = paired(
    {
      floor: { mode: 'floor' },
      cli: { mode: 'cli' },
      cliOne: { mode: 'cli', env: ONE_THREAD },
      manual: { mode: 'manual' },
      ...(COMPARE && { compare: { mode: 'compare' } }),
    },
    file,
    runs,
  );
  const load = os.loadavg().map((l) => l.toFixed(1));
  console.log(
    `varied input: ${large} workloads and their ServiceAccounts, a Service and a ConfigMap per ten (${(readFileSync(file).length / 1e6).toFixed(1)} MB); ${runs} turns; load average ${load.join(', ')}`,
  );
  const wallRow = (label, m) => console.log(`${label.padEnd(52)}: median ${m.wallMs.toFixed(0).padStart(6)} ms wall`);
  row(`floor: yaml parse + stringify, in-process`, at.floor);
  wallRow(`floor: yaml parse + stringify, whole process`, at.floor);
  row(`inject --manual, in-process`, at.manual);
  wallRow(`bin/linkerd inject --manual, whole process`, at.cli);
  wallRow(`bin/linkerd inject --manual, one thread`, at.cliOne);
  const inProcess = at.ratioTo('manual', 'floor');
  const whole = at.ratioTo('cli', 'floor', true);
  console.log(`varied, in-process: ${inProcess.toFixed(2)}× the floor (target ≤ ${TARGET_RATIO}×) ${verdict(inProcess <= TARGET_RATIO)}`);
  console.log(`varied, whole process (bin/linkerd): ${whole.toFixed(2)}× the floor process (target ≤ ${TARGET_RATIO}×) ${verdict(whole <= TARGET_RATIO)}`);
  console.log(`  one thread: ${at.ratioTo('cliOne', 'floor', true).toFixed(2)}× the floor process`);
  if (COMPARE) {
    wallRow(`BENCH_COMPARE's bin/linkerd inject --manual`, at.compare);
    console.log(`  BENCH_COMPARE (${COMPARE}): ${at.ratioTo('compare', 'floor', true).toFixed(2)}× the floor process`);
  }
}

try {
  if (cases.includes('identical')) identical();
  if (cases.includes('varied')) varied();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
