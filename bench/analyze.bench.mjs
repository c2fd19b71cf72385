#!/usr/bin/env node
// `linkerd analyze` over 10,000 workloads and their policies (a Service, a ServiceAccount, a Server,
// a MeshTLSAuthentication and an AuthorizationPolicy each, an HTTPRoute for every fifth), against the
// floor of the same run: parsing the same file with the project's manifest reader (sources.ts +
// stream.ts: every document parsed, as analyze reads it). Target: analyze ≤ 2× the floor (issue 20:
// indexes, not pairwise scans). Runs in this process from dist/ (`npm run build` first), in turns,
// BENCH_RUNS times each (default 5), median reported; BENCH_WORKLOADS sets the size (default 10000).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load } from './support.mjs';
import { median } from './startup.mjs';
import { workload } from './workload.mjs';

const TARGET_RATIO = 2;
const runs = Number(process.env.BENCH_RUNS ?? 5);
const size = Number(process.env.BENCH_WORKLOADS ?? 10000);

function policies(i) {
  const ns = `ns-${i % 50}`;
  const name = `svc-${i}`;
  const meta = `  name: ${name}\n  namespace: ${ns}\n`;
  let text = `---\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n${meta}`;
  text += `---\napiVersion: v1\nkind: Service\nmetadata:\n${meta}spec:\n  selector:\n    app: ${name}\n  ports:\n    - port: 80\n      targetPort: http\n`;
  text += `---\napiVersion: policy.linkerd.io/v1beta3\nkind: Server\nmetadata:\n${meta}spec:\n  podSelector:\n    matchLabels:\n      app: ${name}\n  port: http\n  proxyProtocol: HTTP/1\n`;
  text += `---\napiVersion: policy.linkerd.io/v1alpha1\nkind: MeshTLSAuthentication\nmetadata:\n${meta}spec:\n  identities:\n    - svc-${(i + 1) % size}.ns-${(i + 1) % 50}.serviceaccount.identity.linkerd.cluster.local\n`;
  text += `---\napiVersion: policy.linkerd.io/v1alpha1\nkind: AuthorizationPolicy\nmetadata:\n${meta}spec:\n  targetRef:\n    group: policy.linkerd.io\n    kind: Server\n    name: ${name}\n  requiredAuthenticationRefs:\n    - name: ${name}\n      kind: MeshTLSAuthentication\n      group: policy.linkerd.io\n`;
  if (i % 5 === 0) {
    text += `---\napiVersion: policy.linkerd.io/v1beta3\nkind: HTTPRoute\nmetadata:\n${meta}spec:\n  parentRefs:\n    - name: ${name}\n      kind: Server\n      group: policy.linkerd.io\n  rules:\n    - matches:\n        - path:\n            value: /api\n`;
  }
  return text;
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'analyze-bench-'));
const file = path.join(dir, 'app.yaml');
const parts = [];
for (let i = 0; i < size; i++) parts.push(workload(i), policies(i));
writeFileSync(file, parts.join(''));

const [{ listManifestInputs }, { inputStreams }, { readInputs }, { analyze }] = await Promise.all([
  load('src/core/manifest/sources.js'),
  load('src/core/manifest/stream.js'),
  load('src/families/analyze/read.js'),
  load('src/families/analyze/rules/index.js'),
]);

async function floor() {
  const t0 = performance.now();
  let docs = 0;
  const { inputs } = await listManifestInputs([file]);
  for (const input of inputs) for await (const stream of inputStreams(input)) docs += stream.docs.length;
  return { ms: performance.now() - t0, docs };
}

async function subject() {
  const t0 = performance.now();
  const read = await readInputs([file], 'default');
  const findings = analyze(read, { trustDomain: 'cluster.local', controlPlaneNamespace: 'linkerd' });
  return { ms: performance.now() - t0, objects: read.objects.length, findings: findings.length };
}

try {
  await floor();
  await subject();
  const floors = [];
  const subjects = [];
  let last;
  for (let i = 0; i < runs; i++) {
    floors.push((await floor()).ms);
    last = await subject();
    subjects.push(last.ms);
  }
  const f = median(floors);
  const s = median(subjects);
  console.log(`parse (manifest reader)  : median ${f.toFixed(0)} ms (${runs} runs)`);
  console.log(`linkerd analyze          : median ${s.toFixed(0)} ms (${runs} runs; ${size} workloads, ${last.objects} objects, ${last.findings} findings)`);
  console.log(`ratio ${(s / f).toFixed(2)}× (target ≤ ${TARGET_RATIO}×) ${s / f <= TARGET_RATIO ? 'OK' : 'MISSED'}`);
  if (s / f > TARGET_RATIO) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
