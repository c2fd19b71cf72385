import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';

/*
 * Past a few megabytes of YAML, inject hands documents to worker threads (src/core/inject/injectPool.ts).
 * Whatever ran where, the output, the report, the notes, the errors and the exit code are those of a
 * run on one thread (LINKERD_TS_INJECT_WORKERS=0). The inputs stay small: the threshold is lowered
 * to 4 KiB (LINKERD_TS_INJECT_WORKERS_AFTER), and one worker is asked for, whatever the cores.
 * That workers ran is node's own word: NODE_DEBUG=worker makes it log each one it starts.
 */

const ANCHORS = ['--identity-trust-anchors-file', 'fixtures/certs/valid-trust-anchors.pem'];
const SMALL_THRESHOLD = { LINKERD_TS_INJECT_WORKERS_AFTER: '4096' };
const ONE_THREAD = { ...SMALL_THRESHOLD, LINKERD_TS_INJECT_WORKERS: '0' };
const WORKERS = { ...SMALL_THRESHOLD, LINKERD_TS_INJECT_WORKERS: '1' };
const STARTED = /created Worker with ID/;

/** One of each: workloads of several kinds, a Namespace, a Service, a List, comments, anchors, notes. */
function block(i: number): string {
  const pod = (name: string, extra = '') =>
    `metadata:\n  name: ${name}\n  namespace: ns${i % 3}\nspec:\n  template:\n    metadata:\n      labels:\n        app: ${name}\n${extra}    spec:\n      containers:\n      - name: app\n        image: nginx:1.${i}\n        ports:\n        - containerPort: 8080\n`;
  return [
    `# block ${i}\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns${i % 3}\n  annotations:\n    config.linkerd.io/proxy-cpu-request: ${10 + (i % 3)}m\n    config.linkerd.io/proxy-memory-request: ${20 + (i % 3)}Mi\n`,
    `apiVersion: apps/v1\nkind: Deployment # a comment\n${pod(`web${i}`)}`,
    `apiVersion: apps/v1\nkind: StatefulSet\n${pod(`db${i}`, '      annotations:\n        config.linkerd.io/proxy-memory-limit: 64Mi\n        config.linkerd.io/skip-outbound-ports: "not-a-port"\n')}`,
    `apiVersion: apps/v1\nkind: DaemonSet\n${pod(`agent${i}`)}`,
    `apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: job${i}\nspec:\n  schedule: "* * * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          containers:\n          - name: job\n            image: busybox\n`,
    `apiVersion: v1\nkind: Service\nmetadata:\n  name: web${i}\nspec:\n  ports:\n  - port: 80\n`,
    `apiVersion: v1\nkind: List\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: listed${i}\n  spec:\n    template:\n      spec:\n        containers:\n        - name: app\n          image: nginx\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cm${i}\n`,
    // An anchor: the Document path, not the fast path.
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: anchored${i}\n  labels: &labels\n    app: anchored${i}\nspec:\n  template:\n    metadata:\n      labels: *labels\n    spec:\n      containers:\n      - {name: app, image: nginx}\n`,
    `# only a comment\n`,
  ]
    .map((d) => `---\n${d}`)
    .join('');
}

const BLOCKS = 24; // about 40 KB, ten times the lowered threshold
const mixed = Array.from({ length: BLOCKS }, (_, i) => block(i)).join('');

let dir: string;
const file = (name: string) => path.join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'l5d-workers-'));
  writeFileSync(file('mixed.yaml'), mixed);
  const late = `---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: late\nspec:\n  template:\n    spec:\n      hostNetwork: true\n      containers:\n      - name: app\n        image: nginx\n`;
  writeFileSync(file('late-transform-error.yaml'), mixed + late + block(BLOCKS));
  writeFileSync(file('late-parse-error.yaml'), `${mixed}---\napiVersion: v1\nkind: Pod\nmetadata: [\n${block(BLOCKS)}`);
  // Nested past what a thread's stack takes: where the parser runs out depends on the stack, so the main thread answers.
  writeFileSync(file('late-deep.yaml'), `${mixed}---\nkind: ConfigMap\ndata:\n  a: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n${block(BLOCKS)}`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function inject(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  // Worker threads run the built worker script (dist/bundle): spawned.
  return runCli(['inject', '--ignore-cluster', ...args], { env, spawn: true });
}

describe('inject on worker threads (CLI)', () => {
  it('--manual gives the same bytes, report, notes and exit code as one thread', async () => {
    const args = ['--manual', '--proxy-cpu-request', '20m', ...ANCHORS, file('mixed.yaml')];
    const [one, many, logged] = await Promise.all([inject(args, ONE_THREAD), inject(args, WORKERS), inject(args, { ...WORKERS, NODE_DEBUG: 'worker' })]);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain(`name: anchored${BLOCKS - 1}`);
    expect(one.stderr).toContain('ignoring annotation config.linkerd.io/skip-outbound-ports');
    // The input's Namespace annotations reach the workers (the flag beats the namespace's CPU request).
    expect(one.stdout).toContain(`memory: ${String(20 + ((BLOCKS - 1) % 3))}Mi`);
    expect(many).toEqual(one);
    expect(logged.stdout).toBe(one.stdout);
    expect(logged.stderr).toMatch(STARTED);
  });

  it('annotations and -o json give the same bytes as one thread', async () => {
    for (const args of [[file('mixed.yaml')], ['-o', 'json', file('mixed.yaml')]]) {
      const [one, many] = await Promise.all([inject(args, ONE_THREAD), inject(args, WORKERS)]);
      expect(one.code).toBe(0);
      expect(many).toEqual(one);
    }
  });

  it('an error in a late document voids the output with the same text', async () => {
    for (const [name, expected] of [
      ['late-transform-error.yaml', 'failed to inject deployment/late: hostNetwork is enabled'],
      ['late-parse-error.yaml', `late-parse-error.yaml:${String(mixed.split('\n').length + 4)}:`],
      ['late-deep.yaml', 'nested more than 256 levels deep'],
    ] as const) {
      const args = ['--manual', ...ANCHORS, file(name)];
      const [one, many, logged] = await Promise.all([inject(args, ONE_THREAD), inject(args, WORKERS), inject(args, { ...WORKERS, NODE_DEBUG: 'worker' })]);
      expect(one.code).not.toBe(0);
      expect(one.stdout).toBe('');
      expect(one.stderr).toContain(expected);
      expect(many).toEqual(one);
      expect(logged.stderr).toMatch(STARTED);
    }
  });

  it('starts no worker for an input below the threshold, nor with LINKERD_TS_INJECT_WORKERS=0', async () => {
    const below = await inject(['--manual', ...ANCHORS, file('mixed.yaml')], { LINKERD_TS_INJECT_WORKERS: '1', NODE_DEBUG: 'worker' });
    const off = await inject(['--manual', ...ANCHORS, file('mixed.yaml')], { ...ONE_THREAD, NODE_DEBUG: 'worker' });
    for (const r of [below, off]) {
      expect(r.code).toBe(0);
      expect(r.stderr).not.toMatch(STARTED);
    }
  });

  it('refuses a worker count that is not a number', async () => {
    const r = await inject([file('mixed.yaml')], { LINKERD_TS_INJECT_WORKERS: 'many' });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('LINKERD_TS_INJECT_WORKERS must be a whole number from 0 to 16');
  });
});
