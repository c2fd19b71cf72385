#!/usr/bin/env node
// `linkerd identity rotate status` at scale: this project's install plus 5,000 meshed pods in
// 500 namespaces on the loopback API server (20 ms per request), in the middle of a rotation
// (half of the pods still carry the old bundle). The status reads a fixed set of objects and
// one LIST of meshed pods, and parses each distinct bundle once, so its request count must not
// grow with the pods (compared with a 500-pod cluster). Its wall time is also shown against a
// floor measured in the same run: one plain LIST of the same pods through the same client.
// Needs the compiled CLI (`npm run build`). BENCH_NAMESPACES / BENCH_PODS_PER_NAMESPACE /
// BENCH_LATENCY_MS change the shape.
import fs from 'node:fs';
import path from 'node:path';
import { application, load, root, transpileTestSupport } from './support.mjs';

process.chdir(root);
const NAMESPACES = Number(process.env.BENCH_NAMESPACES ?? 500);
const PODS = Number(process.env.BENCH_PODS_PER_NAMESPACE ?? 10);
const LATENCY = Number(process.env.BENCH_LATENCY_MS ?? 20);
const TARGET = 3;

if (!fs.existsSync(path.join(root, 'dist/src/core/identity/rotationState.js'))) {
  console.error('dist/ is missing or stale: run `npm run build` first');
  process.exit(1);
}
transpileTestSupport();
const { startApiServer, kubeGlobals } = await load('test/support/apiserver.js');
const { healthyCluster, makePki } = await load('test/core/check/support/clusters.js');
const { readRotationState } = await load('src/core/identity/rotationState.js');
const { connectKube } = await load('src/core/kube/kubeClient.js');
const { createTrustAnchor } = await load('src/core/pki/index.js');
const { LINKERD_VERSION } = await load('src/core/version.js');

// Mid-rotation: the control plane runs with both anchors; half of the namespaces were not restarted yet.
const pki = await makePki();
const next = await createTrustAnchor({
  commonName: 'root.linkerd.cluster.local',
  notBefore: new Date(Date.now() - 1000),
  notAfter: new Date(Date.now() + 86_400_000),
});
const cluster = await healthyCluster({
  pki,
  scenarios: ['emojivoto.yaml'],
  values: (v) => (v.identityTrustAnchorsPEM = `${pki.anchor.certPem}${next.certPem}`),
});
const bundle = cluster.bundle;
const oldBundle = pki.anchor.certPem.trim();
function apps(namespaces) {
  const half = Math.ceil(namespaces / 2);
  const restarted = application(half, PODS, bundle, LINKERD_VERSION);
  const stale = application(namespaces - half, PODS, oldBundle, LINKERD_VERSION).map((o) =>
    o.metadata.namespace || o.kind === 'Namespace' ? JSON.parse(JSON.stringify(o).replaceAll('"app-', '"old-')) : o,
  );
  return [...restarted, ...stale];
}

async function measure(objects) {
  const server = await startApiServer({ objects, latencyMs: LATENCY });
  try {
    const sel = kubeGlobals(server);
    await readRotationState(sel, 'linkerd'); // warm: TLS, module loading
    server.resetRequests();
    let began = process.hrtime.bigint();
    const state = await readRotationState(sel, 'linkerd');
    const ms = Number(process.hrtime.bigint() - began) / 1e6;
    const requests = server.requestCount();
    const client = await connectKube(sel);
    began = process.hrtime.bigint();
    await client.list('pods', { labelSelector: 'linkerd.io/control-plane-ns' });
    const floorMs = Number(process.hrtime.bigint() - began) / 1e6;
    client.close();
    if (state.stage !== 'bundle-distributed') throw new Error(`expected the fixture mid-rotation, got stage ${state.stage}`);
    return { ms, floorMs, requests, meshed: state.pods.meshed, stale: state.pods.meshed - state.pods.current };
  } finally {
    await server.stop();
  }
}

const large = await measure([...cluster.objects, ...apps(NAMESPACES)]);
const small = await measure([...cluster.objects, ...apps(Math.max(2, NAMESPACES / 10))]);
const ratio = large.ms / large.floorMs;
console.log(`identity rotate status, ${large.meshed} meshed pods (${large.stale} with the old bundle), ${LATENCY} ms per request`);
console.log(`  status            : ${(large.ms / 1000).toFixed(2)} s, ${large.requests} requests`);
console.log(`  floor (one LIST)  : ${(large.floorMs / 1000).toFixed(2)} s`);
console.log(`ratio ${ratio.toFixed(2)}× the floor (target ≤ ${TARGET}×) ${ratio <= TARGET ? 'OK' : 'MISSED'}`);
const independent = large.requests === small.requests;
console.log(
  `requests: ${large.requests} with ${large.meshed} pods, ${small.requests} with ${small.meshed} pods — ${independent ? 'independent of the pod count: OK' : 'MISSED'}`,
);
if (!independent) process.exitCode = 1;
