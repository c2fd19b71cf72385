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
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../', import.meta.url));
process.chdir(root);
const NAMESPACES = Number(process.env.BENCH_NAMESPACES ?? 500);
const PODS = Number(process.env.BENCH_PODS_PER_NAMESPACE ?? 10);
const LATENCY = Number(process.env.BENCH_LATENCY_MS ?? 20);
const TARGET = 0.25;

if (!fs.existsSync(path.join(root, 'dist/src/core/check/index.js'))) {
  console.error('dist/ is missing or stale: run `npm run build` first');
  process.exit(1);
}

// The loopback API server and the fixture builders are test code (TypeScript, not in dist/):
// transpile them next to the compiled sources so their relative imports resolve there.
for (const dir of ['test/support', 'test/core/check/support']) {
  const out = path.join(root, 'dist', dir);
  fs.mkdirSync(out, { recursive: true });
  for (const file of fs.readdirSync(path.join(root, dir)).filter((f) => f.endsWith('.ts'))) {
    const { outputText } = ts.transpileModule(fs.readFileSync(path.join(root, dir, file), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    fs.writeFileSync(path.join(out, file.replace(/\.ts$/, '.js')), outputText);
  }
}
const load = (p) => import(pathToFileURL(path.join(root, 'dist', p)).href);
const { startApiServer } = await load('test/support/apiserver.js');
const { healthyCluster } = await load('test/core/check/support/clusters.js');
const { runCheck } = await load('src/core/check/index.js');
const { LINKERD_VERSION } = await load('src/core/version.js');

/** `namespaces` × `pods` meshed, ready pods, each namespace with a Service over its pods. */
function application(namespaces, pods, bundle) {
  const objects = [];
  let n = 0;
  for (let i = 0; i < namespaces; i++) {
    const ns = `app-${String(i).padStart(3, '0')}`;
    objects.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { 'kubernetes.io/metadata.name': ns } }, status: { phase: 'Active' } });
    const addresses = [];
    for (let j = 0; j < pods; j++, n++) {
      const name = `web-${i}-${j}`;
      const ip = `10.${1 + Math.floor(n / 65536)}.${Math.floor(n / 256) % 256}.${n % 256}`;
      addresses.push({ ip, targetRef: { kind: 'Pod', name, namespace: ns } });
      objects.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: ns, labels: { app: 'web', 'linkerd.io/control-plane-ns': 'linkerd' }, annotations: { 'linkerd.io/inject': 'enabled' } },
        spec: {
          initContainers: [
            {
              name: 'linkerd-proxy',
              image: `cr.l5d.io/linkerd/proxy:${LINKERD_VERSION}`,
              restartPolicy: 'Always',
              env: [{ name: 'LINKERD2_PROXY_IDENTITY_TRUST_ANCHORS', value: bundle }],
            },
          ],
          containers: [{ name: 'web', image: 'docker.l5d.io/buoyantio/emojivoto-web:v11', ports: [{ name: 'http', containerPort: 8080 }] }],
        },
        status: {
          phase: 'Running',
          podIP: ip,
          conditions: [{ type: 'Ready', status: 'True' }],
          initContainerStatuses: [{ name: 'linkerd-proxy', ready: true, started: true, restartCount: 0, state: { running: {} } }],
          containerStatuses: [{ name: 'web', ready: true, restartCount: 0, state: { running: {} } }],
        },
      });
    }
    objects.push({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: ns },
      spec: { clusterIP: `10.96.${Math.floor(i / 256)}.${i % 256}`, selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
    });
    objects.push({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'web', namespace: ns }, subsets: [{ addresses, ports: [{ name: 'http', port: 8080 }] }] });
  }
  return objects;
}

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
const large = [...cluster.objects, ...application(NAMESPACES, PODS, cluster.bundle)];
const small = [...cluster.objects, ...application(Math.max(1, NAMESPACES / 10), PODS, cluster.bundle)];
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
