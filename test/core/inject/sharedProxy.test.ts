import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PodSpec } from 'kubernetes-types/core/v1.js';
import { sidecarPodKey } from '../../../templates/proxy/index.js';
import { itemsLines, type BlockStyle } from '../../../src/core/manifest/emit.js';
import { deepFreeze } from '../../../src/core/values/tree.js';
import { inject, type InjectOptions } from './support.js';

/*
 * Workloads whose proxy comes out the same share one rendered proxy spec (and its lines) within a
 * run. Sharing must never show: a stream injected in one run is the concatenation of its documents
 * each injected in a run of its own.
 */

const dir = mkdtempSync(path.join(os.tmpdir(), 'linkerd-shared-proxy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Pod {
  ports?: number[];
  probePort?: number;
  caps?: string;
  saMount?: boolean;
  otherMount?: boolean;
  annotations?: Record<string, string>;
  initContainers?: boolean;
  indent?: 2 | 4;
}

function workload(i: number, p: Pod): string {
  const ind = (n: number) => ' '.repeat(n * (p.indent ?? 2));
  const lines = [
    '---',
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    `${ind(1)}name: w${i}`,
    `${ind(1)}namespace: ns${i % 2}`,
    'spec:',
    `${ind(1)}template:`,
  ];
  lines.push(`${ind(2)}metadata:`, `${ind(3)}labels:`, `${ind(4)}app: w${i}`);
  if (p.annotations) {
    lines.push(`${ind(3)}annotations:`);
    for (const [k, v] of Object.entries(p.annotations)) lines.push(`${ind(4)}${k}: ${JSON.stringify(v)}`);
  }
  lines.push(`${ind(2)}spec:`);
  if (p.initContainers) lines.push(`${ind(3)}initContainers:`, `${ind(3)}- name: setup`, `${ind(3)}  image: busybox:1.36`);
  lines.push(`${ind(3)}containers:`, `${ind(3)}- name: app`, `${ind(3)}  image: ghcr.io/example/app:1.0`);
  if (p.ports) {
    lines.push(`${ind(3)}  ports:`);
    for (const port of p.ports) lines.push(`${ind(3)}  - containerPort: ${port}`);
  }
  if (p.probePort) lines.push(`${ind(3)}  readinessProbe:`, `${ind(3)}    httpGet:`, `${ind(3)}      port: ${p.probePort}`);
  if (p.caps) lines.push(`${ind(3)}  securityContext:`, `${ind(3)}    capabilities:`, `${ind(3)}      add: [${p.caps}]`);
  if (p.saMount || p.otherMount) {
    lines.push(`${ind(3)}  volumeMounts:`);
    if (p.saMount) lines.push(`${ind(3)}  - name: token`, `${ind(3)}    mountPath: /var/run/secrets/kubernetes.io/serviceaccount`);
    if (p.otherMount) lines.push(`${ind(3)}  - name: data`, `${ind(3)}    mountPath: /data`);
  }
  return lines.join('\n') + '\n';
}

const PODS: Pod[] = [
  { ports: [8080] },
  { ports: [8080] },
  { ports: [9090], probePort: 9091 },
  { ports: [8080], caps: 'NET_BIND_SERVICE' },
  { ports: [8080] },
  { ports: [8080], saMount: true },
  { ports: [8080], otherMount: true },
  { ports: [8080], annotations: { 'config.linkerd.io/proxy-cpu-request': '300m' } },
  { ports: [8080] },
  { ports: [8080], annotations: { 'config.alpha.linkerd.io/debug-sidecar': 'true' } },
  { ports: [8080], initContainers: true },
  { ports: [8080], indent: 4 },
  { ports: [8080] },
  {},
];

let n = 0;
function file(text: string): string {
  const f = path.join(dir, `m${n++}.yaml`);
  writeFileSync(f, text);
  return f;
}

async function each(texts: string[], o: InjectOptions): Promise<{ stdout: string; stderr: string }> {
  const alone = await Promise.all(texts.map((t) => inject([file(t)], o)));
  return { stdout: alone.map((r) => r.stdout).join(''), stderr: alone.map((r) => r.stderr.replace(/\n\n.*$/s, '')).join('') };
}

describe('inject --manual with a proxy shared between workloads', () => {
  const texts = PODS.map((p, i) => workload(i, p));
  const cases: Array<[string, InjectOptions]> = [
    ['native sidecar', { manual: true }],
    ['classic layout, proxy awaited', { manual: true, flags: { 'native-sidecar': false } }],
    ['classic layout, debug sidecar', { manual: true, flags: { 'native-sidecar': false }, debugSidecar: true }],
    ['ingress, CNI', { manual: true, flags: { ingress: true }, cni: true }],
  ];
  for (const [name, o] of cases) {
    it(`writes what injecting each workload on its own writes (${name})`, async () => {
      const together = await inject([file(texts.join(''))], o);
      const apart = await each(texts, o);
      expect(together.exitCode).toBe(0);
      expect(together.stdout).toBe(apart.stdout);
      // The report lists every workload once, in order, with the notes each run gave.
      expect(together.stderr.replace(/\n\n.*$/s, '')).toBe(apart.stderr);
    });
  }

  it('gives each workload its own inbound ports and carried-over capabilities', async () => {
    const out = (await inject([file(texts.slice(0, 5).join(''))], { manual: true })).stdout;
    const ports = [...out.matchAll(/name: LINKERD2_PROXY_INBOUND_PORTS\n\s+value: "?([\d,]*)"?/g)].map((m) => m[1]);
    expect(ports).toEqual(['8080', '8080', '9090,9091', '8080', '8080']);
    // Only the workload with NET_BIND_SERVICE gives it to its proxy (and its init container).
    expect(out.split(/^---$/m).map((d) => d.split('NET_BIND_SERVICE').length - 1)).toEqual([0, 0, 0, 0, 3, 0]);
  });
});

describe('sidecarPodKey', () => {
  const spec = (c: Record<string, unknown>): PodSpec => ({ containers: [{ name: 'app', ...c }] });
  it('is equal for pods the proxy templates cannot tell apart', () => {
    const key = (s: PodSpec) => sidecarPodKey({ controlPlaneNamespace: 'linkerd', podSpec: s });
    expect(key(spec({ image: 'a', ports: [{ containerPort: 80 }] }))).toBe(key(spec({ image: 'b', env: [], ports: [{ containerPort: 80 }] })));
    expect(key(spec({ ports: [{ containerPort: 80 }] }))).not.toBe(key(spec({ ports: [{ containerPort: 81 }] })));
    expect(key(spec({ volumeMounts: [{ name: 'd', mountPath: '/data' }] }))).toBe(key(spec({})));
  });
  it('is undefined when the app container carries what the proxy copies, or for control-plane pods', () => {
    expect(sidecarPodKey({ controlPlaneNamespace: 'l', podSpec: spec({ securityContext: { capabilities: { drop: ['ALL'] } } }) })).toBeUndefined();
    const sa = { name: 't', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };
    expect(sidecarPodKey({ controlPlaneNamespace: 'l', podSpec: spec({ volumeMounts: [sa] }) })).toBeUndefined();
    expect(sidecarPodKey({ controlPlaneNamespace: 'l', podSpec: spec({ volumeMounts: 'odd' }) })).toBeUndefined();
    expect(sidecarPodKey({ controlPlaneNamespace: 'l', podSpec: spec({}), component: 'linkerd-identity' })).toBeUndefined();
  });
});

describe('lines of frozen items', () => {
  it('are the lines of the same items unfrozen, in every layout and column', () => {
    const item = () => ({
      name: 'linkerd-proxy',
      args: ['a', 'b'],
      env: [{ name: 'X', value: 'multi\nline' }],
      ports: [{ containerPort: 4143 }],
      resources: {},
    });
    const frozen = deepFreeze([item(), item()]);
    const styles: BlockStyle[] = [
      { indent: 2, seqIndent: 0, itemPad: 2 },
      { indent: 4, seqIndent: 2, itemPad: 2 },
      { indent: 2, seqIndent: 2, itemPad: 4 },
    ];
    for (const style of styles)
      for (const col of [0, 4, 6]) {
        // Twice: the second time the lines come from the cache.
        expect(itemsLines(frozen, col, style)).toEqual(itemsLines([item(), item()], col, style));
        expect(itemsLines(frozen, col, style)).toEqual(itemsLines([item(), item()], col, style));
      }
  });
});
