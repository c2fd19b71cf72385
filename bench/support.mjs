// Shared by the benchmarks that need the loopback API server and a meshed fixture cluster.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

export const root = fileURLToPath(new URL('../', import.meta.url));

/**
 * The loopback API server and the fixture builders are test code (TypeScript, not in dist/):
 * transpile them next to the compiled sources so their relative imports resolve there.
 */
export function transpileTestSupport(dirs = ['test/support', 'test/core/check/support']) {
  for (const dir of dirs) {
    const out = path.join(root, 'dist', dir);
    fs.mkdirSync(out, { recursive: true });
    for (const file of fs.readdirSync(path.join(root, dir)).filter((f) => f.endsWith('.ts'))) {
      const { outputText } = ts.transpileModule(fs.readFileSync(path.join(root, dir, file), 'utf8'), {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      });
      fs.writeFileSync(path.join(out, file.replace(/\.ts$/, '.js')), outputText);
    }
  }
}

/** Imports a module of dist/. */
export const load = (p) => import(pathToFileURL(path.join(root, 'dist', p)).href);

/** `namespaces` × `pods` meshed, ready pods, each namespace with a Service over its pods. */
export function application(namespaces, pods, bundle, proxyVersion) {
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
              image: `cr.l5d.io/linkerd/proxy:${proxyVersion}`,
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
    objects.push({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'web', namespace: ns },
      subsets: [{ addresses, ports: [{ name: 'http', port: 8080 }] }],
    });
  }
  return objects;
}
