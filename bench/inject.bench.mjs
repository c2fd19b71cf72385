#!/usr/bin/env node
// `linkerd inject --manual` over a generated manifest of 10,000 workloads, against the floor of the
// same run: parsing and re-stringifying that file with the same YAML library (`yaml`'s
// parseAllDocuments + toString). Targets: ≤ 1.5× the floor at 10,000 workloads, and linear growth
// (≤ 11× the time for 10× the workloads). Each measurement runs in a fresh process (compiled code
// from dist/, `npm run build` first) so its peak RSS is its own. BENCH_RUNS sets the runs per case
// (default 3); BENCH_WORKLOADS the large size (default 10000).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './startup.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const self = fileURLToPath(import.meta.url);
const TARGET_RATIO = 1.5;
const TARGET_SCALING = 11;

// ---------------------------------------------------------------- child: one measurement

if (process.argv[2] === '--child') {
  const [mode, file] = process.argv.slice(3);
  const anchors = path.join(root, 'fixtures/certs/valid-trust-anchors.pem');
  let ms;
  let bytes;
  if (mode === 'floor') {
    const { parseAllDocuments } = await import(pathToFileURL(path.join(root, 'node_modules/yaml/dist/index.js')).href);
    const t0 = performance.now();
    const text = readFileSync(file, 'utf8');
    const out = parseAllDocuments(text).map((d) => d.toString()).join('');
    ms = performance.now() - t0;
    bytes = out.length;
  } else {
    const { runInject } = await import(pathToFileURL(path.join(root, 'dist/src/core/inject/index.js')).href);
    const t0 = performance.now();
    const r = await runInject({
      inputs: [file],
      manual: mode === 'manual',
      output: 'auto',
      flags: [],
      debugSidecar: false,
      verbose: false,
      base: { ignoreCluster: true, controlPlaneNamespace: 'linkerd', kube: { asGroup: [] }, trustAnchorsFile: anchors },
    });
    ms = performance.now() - t0;
    if (r.exitCode !== 0) throw new Error(r.stderr);
    bytes = r.stdout.length;
  }
  process.stdout.write(JSON.stringify({ ms, bytes, rssMB: process.resourceUsage().maxRSS / 1024 }));
  process.exit(0);
}

// ---------------------------------------------------------------- parent

const KINDS = [
  ['apps/v1', 'Deployment'],
  ['apps/v1', 'StatefulSet'],
  ['apps/v1', 'DaemonSet'],
  ['batch/v1', 'Job'],
];

/** A realistic workload: comments, labels, probes, env, resources; ports vary per workload. */
function workload(i) {
  const [apiVersion, kind] = KINDS[i % KINDS.length];
  return `---
# workload ${i}: owned by team-${i % 17}
apiVersion: ${apiVersion}
kind: ${kind}
metadata:
  name: svc-${i}
  namespace: ns-${i % 50}
  labels:
    app: svc-${i}
    team: team-${i % 17}
spec:
  selector:
    matchLabels:
      app: svc-${i}
  template:
    metadata:
      labels:
        app: svc-${i}
      annotations:
        prometheus.io/scrape: "true"
    spec:
      containers:
      - name: app
        image: "ghcr.io/example/svc-${i}:1.${i % 9}.0"
        args: ["--port", "${8000 + (i % 100)}"]
        ports:
        - containerPort: ${8000 + (i % 100)}
          name: http
        readinessProbe:
          httpGet:
            path: /ready
            port: ${9000 + (i % 10)}
        env:
        - name: MODE
          value: production
        resources:
          requests: {cpu: 100m, memory: 64Mi}
`;
}

function measure(mode, file, runs) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, ['--max-old-space-size=4096', self, '--child', mode, file], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 20 });
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
  for (const n of [small, large]) {
    files[n] = path.join(dir, `workloads-${n}.yaml`);
    writeFileSync(files[n], Array.from({ length: n }, (_, i) => workload(i)).join(''));
  }
  const mb = (n) => (readFileSync(files[n]).length / 1e6).toFixed(1);
  const row = (label, m) =>
    console.log(`${label.padEnd(46)}: median ${m.ms.toFixed(0).padStart(6)} ms, peak RSS ${m.rssMB.toFixed(0).padStart(4)} MB, output ${(m.bytes / 1e6).toFixed(1)} MB`);

  const floorLarge = measure('floor', files[large], runs);
  const manualLarge = measure('manual', files[large], runs);
  const manualSmall = measure('manual', files[small], runs);
  const annotateLarge = measure('annotate', files[large], runs);

  console.log(`input: ${large} workloads (${mb(large)} MB) and ${small} workloads (${mb(small)} MB); ${runs} runs each`);
  row(`floor: yaml parse + stringify, ${large}`, floorLarge);
  row(`inject --manual, ${large}`, manualLarge);
  row(`inject --manual, ${small}`, manualSmall);
  row(`inject (annotations), ${large}`, annotateLarge);
  const ratio = manualLarge.ms / floorLarge.ms;
  const scaling = manualLarge.ms / manualSmall.ms;
  console.log(`ratio to floor at ${large}: ${ratio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×) ${ratio <= TARGET_RATIO ? 'OK' : 'MISSED'}`);
  console.log(`scaling ${small} → ${large}: ${scaling.toFixed(2)}× for 10× the input (target ≤ ${TARGET_SCALING}×) ${scaling <= TARGET_SCALING ? 'OK' : 'MISSED'}`);
  console.log(`annotation mode at ${large}: ${(annotateLarge.ms / floorLarge.ms).toFixed(2)}× the floor`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
