#!/usr/bin/env node
// `linkerd viz stat deploy -A` at scale: a fixture cluster with viz and 5,000 meshed pods in
// 500 namespaces on the loopback API server (20 ms a request), and a loopback metrics API
// (real gRPC over the API server's port-forward) answering a row per deployment. The command
// must make one metrics-API call and the same Kubernetes reads whatever the pod count: it is
// run against this cluster and a tenth of it, and the calls, reads and wall times are printed
// with their ratios (large ÷ small; the target for calls and reads is 1.00×).
// Needs the compiled CLI (`npm run build`). BENCH_NAMESPACES / BENCH_PODS_PER_NAMESPACE /
// BENCH_LATENCY_MS change the shape.
import fs from 'node:fs';
import path from 'node:path';
import { load, root, application, transpileTestSupport } from './support.mjs';

process.chdir(root);
const NAMESPACES = Number(process.env.BENCH_NAMESPACES ?? 500);
const PODS = Number(process.env.BENCH_PODS_PER_NAMESPACE ?? 10);
const LATENCY = Number(process.env.BENCH_LATENCY_MS ?? 20);

if (!fs.existsSync(path.join(root, 'dist/src/families/viz/commands/stat.js'))) {
  console.error('dist/ is missing or stale: run `npm run build` first');
  process.exit(1);
}

transpileTestSupport(['test/support', 'test/core/check/support', 'test/families/viz']);
const { startApiServer } = await load('test/support/apiserver.js');
const { healthyCluster } = await load('test/core/check/support/clusters.js');
const { vizObjects } = await load('test/families/viz/cluster.js');
const { startMetricsApiServer } = await load('test/families/viz/metricsApiServer.js');
const { statRow, okStat } = await load('test/families/viz/metricsRows.js');
const { runCli } = await load('test/support/cli.js');
const { LINKERD_VERSION } = await load('src/core/version.js');

async function measure(objects, namespaces) {
  const metrics = await startMetricsApiServer();
  const rows = Array.from({ length: namespaces }, (_, i) => statRow('deployment', 'web', `app-${String(i).padStart(3, '0')}`));
  metrics.on('StatSummary', () => okStat(rows));
  const server = await startApiServer({
    objects,
    latencyMs: LATENCY,
    portForward: (_ns, _pod, port) => (port === 8085 ? { host: '127.0.0.1', port: metrics.port } : undefined),
  });
  try {
    const began = process.hrtime.bigint();
    const r = await runCli(['viz', 'stat', 'deploy', '-A', '--kubeconfig', server.kubeconfigPath]);
    const ms = Number(process.hrtime.bigint() - began) / 1e6;
    if (r.code !== 0 || r.stdout.split('\n').length !== namespaces + 2) throw new Error(`viz stat failed (${r.code}): ${r.stderr}`);
    return { ms, reads: server.requestCount(), calls: metrics.calls.length };
  } finally {
    await server.stop();
    await metrics.stop();
  }
}

const cluster = await healthyCluster({ scenarios: ['emojivoto.yaml'] });
const viz = await vizObjects();
const smallNamespaces = Math.max(1, NAMESPACES / 10);
const large = [...cluster.objects, ...viz, ...application(NAMESPACES, PODS, cluster.bundle, LINKERD_VERSION)];
const small = [...cluster.objects, ...viz, ...application(smallNamespaces, PODS, cluster.bundle, LINKERD_VERSION)];

await measure(small, smallNamespaces); // warm up module loading and TLS
const big = await measure(large, NAMESPACES);
const floor = await measure(small, smallNamespaces);

const pods = NAMESPACES * PODS;
const x = (a, b) => `${(a / b).toFixed(2)}×`;
console.log(`viz stat deploy -A, ${LATENCY} ms per Kubernetes request`);
console.log(`  ${pods} pods : ${(big.ms / 1000).toFixed(2)} s, ${big.calls} metrics-API call(s), ${big.reads} Kubernetes requests`);
console.log(`  ${pods / 10} pods  : ${(floor.ms / 1000).toFixed(2)} s, ${floor.calls} metrics-API call(s), ${floor.reads} Kubernetes requests`);
console.log(`ratios (large ÷ small): time ${x(big.ms, floor.ms)}, calls ${x(big.calls, floor.calls)}, requests ${x(big.reads, floor.reads)}`);
const ok = big.calls === 1 && floor.calls === 1 && big.reads === floor.reads;
console.log(ok ? 'one call, reads independent of the pod count: OK' : 'MISSED');
if (!ok) process.exitCode = 1;
