#!/usr/bin/env node
// `linkerd check --proxy` at scale: a fixture cluster of 5,000 meshed pods in 500 namespaces
// (one Service and its Endpoints per namespace) on the loopback API server with 20 ms of
// latency per request. Compares the CLI's way — one snapshot per run (a LIST per resource
// type) and independent checks run concurrently — against the same checks run one request at
// a time (sequentially, each read its own request, a GET per object looked up, as the Go CLI
// reads). Target: wall time ≤ 0.25× the floor, and a request count that does not grow with
// the number of pods (compared with a 500-pod cluster).
// Needs the compiled CLI (`npm run build`). BENCH_NAMESPACES / BENCH_PODS_PER_NAMESPACE /
// BENCH_LATENCY_MS change the shape.
import fs from 'node:fs';
import path from 'node:path';
import { load, root, application, transpileTestSupport } from './support.mjs';

process.chdir(root);
const NAMESPACES = Number(process.env.BENCH_NAMESPACES ?? 500);
const PODS = Number(process.env.BENCH_PODS_PER_NAMESPACE ?? 10);
const LATENCY = Number(process.env.BENCH_LATENCY_MS ?? 20);
const TARGET = 0.25;

if (!fs.existsSync(path.join(root, 'dist/src/core/check/index.js'))) {
  console.error('dist/ is missing or stale: run `npm run build` first');
  process.exit(1);
}

transpileTestSupport();
const { startApiServer } = await load('test/support/apiserver.js');
const { healthyCluster } = await load('test/core/check/support/clusters.js');
const { runCheck } = await load('src/core/check/index.js');
const { LINKERD_VERSION } = await load('src/core/version.js');

async function measure(objects, how) {
  const server = await startApiServer({ objects, latencyMs: LATENCY });
  try {
    const began = process.hrtime.bigint();
    const report = await runCheck({
      mode: 'proxy',
      kube: { kubeconfig: server.kubeconfigPath, asGroup: [] },
      controlPlaneNamespace: 'linkerd',
      cniNamespace: 'linkerd-cni',
      cniEnabled: false,
      cliVersion: LINKERD_VERSION,
      expectedVersion: LINKERD_VERSION,
      versionCheck: { url: 'http://127.0.0.1:9/version.json', timeoutMs: 100 },
      timeoutMs: 600_000,
      waitMs: 0,
      ...how,
    });
    const ms = Number(process.hrtime.bigint() - began) / 1e6;
    const failed = report.results.filter((r) => r.status === 'error' || r.status === 'warning').map((r) => `${r.id}: ${r.error}`);
    if (failed.length > 0) throw new Error(`the fixture cluster should be healthy:\n${failed.join('\n')}`);
    return { ms, requests: server.requestCount() };
  } finally {
    await server.stop();
  }
}

const cluster = await healthyCluster({ scenarios: ['emojivoto.yaml'] });
const large = [...cluster.objects, ...application(NAMESPACES, PODS, cluster.bundle, LINKERD_VERSION)];
const small = [...cluster.objects, ...application(Math.max(1, NAMESPACES / 10), PODS, cluster.bundle, LINKERD_VERSION)];
const fast = { reads: 'cached' };
const floor = { reads: 'direct', concurrency: 1 };

await measure(small, fast); // warm up module loading and TLS
const snapshot = await measure(large, fast);
const smallSnapshot = await measure(small, fast);
const sequential = await measure(large, floor);
const snapshotOnly = await measure(large, { reads: 'cached', concurrency: 1 });

const ratio = snapshot.ms / sequential.ms;
const pods = NAMESPACES * PODS;
console.log(`check --proxy, ${pods} pods in ${NAMESPACES} namespaces, ${LATENCY} ms per request`);
console.log(`  snapshot + concurrent checks : ${(snapshot.ms / 1000).toFixed(2)} s, ${snapshot.requests} requests`);
console.log(`  one request at a time        : ${(sequential.ms / 1000).toFixed(2)} s, ${sequential.requests} requests`);
console.log(`  (snapshot, checks in series : ${(snapshotOnly.ms / 1000).toFixed(2)} s, ${snapshotOnly.requests} requests)`);
console.log(`ratio ${ratio.toFixed(3)}× (target ≤ ${TARGET}×) ${ratio <= TARGET ? 'OK' : 'MISSED'}`);
console.log(
  `requests: ${snapshot.requests} with ${pods} pods, ${smallSnapshot.requests} with ${pods / 10} pods — ${snapshot.requests === smallSnapshot.requests ? 'independent of the pod count: OK' : 'MISSED'}`,
);
