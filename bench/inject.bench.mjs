#!/usr/bin/env node
// `linkerd inject --manual` over a generated manifest of 10,000 workloads, against the floor of the
// same run: parsing and re-stringifying that file with the same YAML library (`yaml`'s
// parseAllDocuments + toString); the library's CST round trip (Parser + CST.stringify) is shown
// beside it. Targets: time ≤ 0.6× the floor at 10,000 workloads (issue 10; the earlier target was
// 1.5×), linear growth (≤ 11× the time for 10× the workloads), peak RSS ≤ 1.2× the floor's, and
// flat memory from 10,000 to 40,000 workloads (≤ 1.15×, measured with the heap capped at 96 MB so
// that it is what is kept, not how much garbage V8 lets pile up before collecting). Each
// measurement runs in a fresh process (compiled code from dist/, `npm run build` first) writing the
// manifest to /dev/null, so its peak RSS is its own. BENCH_RUNS sets the runs per case (default 3; 1 at the largest size);
// BENCH_WORKLOADS the large size (default 10000).
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './startup.mjs';
import { workload } from './workload.mjs';

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
    const { runInject } = await import(pathToFileURL(path.join(root, 'dist/src/core/inject/index.js')).href);
    const { injectText, printTransform } = await import(pathToFileURL(path.join(root, 'dist/src/cli/output/inject.js')).href);
    const t0 = performance.now();
    const r = await runInject({
      inputs: [file],
      manual: mode === 'manual',
      output: 'auto',
      flags: [],
      debugSidecar: false,
      base: { ignoreCluster: true, controlPlaneNamespace: 'linkerd', kube: { asGroup: [] }, trustAnchorsFile: anchors },
    });
    let written = 0;
    const counter = new Writable({
      write(chunk, _enc, done) {
        written += chunk.length;
        done();
      },
    });
    const text = injectText(r, { verbose: false });
    const code = await printTransform(r, text, counter, devNull);
    ms = performance.now() - t0;
    if (code !== 0) throw new Error(text.stderr);
    bytes = written;
  }
  process.stdout.write(JSON.stringify({ ms, bytes, rssMB: process.resourceUsage().maxRSS / 1024 }));
  process.exit(0);
}

// ---------------------------------------------------------------- parent

function measure(mode, file, runs, heapMB = 4096) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, [`--max-old-space-size=${heapMB}`, self, '--child', mode, file], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 20 });
    if (r.status !== 0) throw new Error(`${mode} ${file} exited ${r.status}: ${r.stderr}`);
    results.push(JSON.parse(r.stdout));
  }
  return { ms: median(results.map((r) => r.ms)), rssMB: Math.max(...results.map((r) => r.rssMB)), bytes: results[0].bytes };
}

const runs = Number(process.env.BENCH_RUNS ?? 3);
const large = Number(process.env.BENCH_WORKLOADS ?? 10000);
const small = Math.max(1, Math.round(large / 10));
const dir = mkdtempSync(path.join(os.tmpdir(), 'linkerd-inject-bench-'));
try {
  const files = {};
  const huge = large * 4;
  for (const n of [small, large, huge]) {
    files[n] = path.join(dir, `workloads-${n}.yaml`);
    writeFileSync(files[n], Array.from({ length: n }, (_, i) => workload(i)).join(''));
  }
  const mb = (n) => (readFileSync(files[n]).length / 1e6).toFixed(1);
  const row = (label, m) =>
    console.log(
      `${label.padEnd(46)}: median ${m.ms.toFixed(0).padStart(6)} ms, peak RSS ${m.rssMB.toFixed(0).padStart(4)} MB, output ${(m.bytes / 1e6).toFixed(1)} MB`,
    );

  const floorLarge = measure('floor', files[large], runs);
  const cstLarge = measure('cst', files[large], runs);
  const manualLarge = measure('manual', files[large], runs);
  const manualSmall = measure('manual', files[small], runs);
  const manualHuge = measure('manual', files[huge], 1);
  // With the heap capped, peak RSS is what is kept, not how far V8 lets garbage pile up.
  const cappedLarge = measure('manual', files[large], 1, CAPPED_HEAP_MB);
  const cappedHuge = measure('manual', files[huge], 1, CAPPED_HEAP_MB);
  const annotateLarge = measure('annotate', files[large], runs);

  console.log(`input: ${small}, ${large} and ${huge} workloads (${mb(small)}, ${mb(large)} and ${mb(huge)} MB); ${runs} runs each (1 at ${huge})`);
  row(`floor: yaml parse + stringify, ${large}`, floorLarge);
  row(`yaml CST round trip (Parser + CST.stringify), ${large}`, cstLarge);
  row(`inject --manual, ${small}`, manualSmall);
  row(`inject --manual, ${large}`, manualLarge);
  row(`inject --manual, ${huge}`, manualHuge);
  row(`inject (annotations), ${large}`, annotateLarge);
  row(`inject --manual, ${large}, heap ≤ ${CAPPED_HEAP_MB} MB`, cappedLarge);
  row(`inject --manual, ${huge}, heap ≤ ${CAPPED_HEAP_MB} MB`, cappedHuge);
  const verdict = (ok) => (ok ? 'OK' : 'MISSED');
  const ratio = manualLarge.ms / floorLarge.ms;
  const scaling = manualLarge.ms / manualSmall.ms;
  const rss = manualLarge.rssMB / floorLarge.rssMB;
  const flat = cappedHuge.rssMB / cappedLarge.rssMB;
  console.log(`CST round trip: ${(cstLarge.ms / floorLarge.ms).toFixed(2)}× the floor`);
  console.log(`time, ratio to floor at ${large}: ${ratio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×) ${verdict(ratio <= TARGET_RATIO)}`);
  console.log(`scaling ${small} → ${large}: ${scaling.toFixed(2)}× for 10× the input (target ≤ ${TARGET_SCALING}×) ${verdict(scaling <= TARGET_SCALING)}`);
  console.log(`peak RSS, ratio to floor at ${large}: ${rss.toFixed(2)}× (target ≤ ${TARGET_RSS_RATIO}×) ${verdict(rss <= TARGET_RSS_RATIO)}`);
  console.log(
    `peak RSS ${large} → ${huge}, heap ≤ ${CAPPED_HEAP_MB} MB: ${flat.toFixed(2)}× for 4× the input (target ≤ ${TARGET_RSS_FLAT}×) ${verdict(flat <= TARGET_RSS_FLAT)}`,
  );
  console.log(`peak RSS ${large} → ${huge}, uncapped: ${(manualHuge.rssMB / manualLarge.rssMB).toFixed(2)}× (V8 grows the heap with the work done)`);
  console.log(`annotation mode at ${large}: ${(annotateLarge.ms / floorLarge.ms).toFixed(2)}× the floor`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
