import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerLost } from '../../../src/core/inject/batch.js';
import { InjectPool, injectWorkerFile, workerPlan } from '../../../src/core/inject/injectPool.js';
import type { InjectWorkerData } from '../../../src/core/inject/injectWorkerMessages.js';
import { segmentStream } from '../../../src/core/manifest/stream.js';
import { settings } from './generators.js';

/*
 * The pool's own duties, with stand-in worker scripts: a worker that dies or throws rejects the
 * documents it had with a WorkerLost naming their input (it never waits forever); transform.ts then
 * injects them on the main thread (test/cli/inject-worker-heap.test.ts).
 * Injection itself on workers is compared with one thread in test/cli/inject-workers.test.ts.
 */

const DATA: InjectWorkerData = { settings: settings(true, []), format: 'auto' };

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'l5d-pool-'));
  writeFileSync(path.join(dir, 'exits.mjs'), "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => process.exit(3));\n");
  writeFileSync(
    path.join(dir, 'throws.mjs'),
    "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => { throw new Error('boom'); });\n",
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const doc = () => segmentStream({ name: 'deploy.yaml', text: 'kind: Deployment\n' });

describe('inject worker pool', () => {
  for (const [script, reason] of [
    ['exits.mjs', 'it stopped with exit code 3'],
    ['throws.mjs', 'boom'],
  ] as const) {
    it(`fails the batches of a worker that ${script === 'exits.mjs' ? 'exits' : 'throws'}, naming the input`, async () => {
      const pool = InjectPool.start(1, DATA, path.join(dir, script));
      if (!pool) throw new Error('no pool');
      try {
        const run = pool.offer([doc()]);
        await expect(run).rejects.toThrow(WorkerLost);
        await expect(run).rejects.toThrow(`deploy.yaml: the worker thread injecting it failed: ${reason}`);
        // A dead worker takes nothing more: the main thread injects the rest itself.
        expect(pool.offer([doc()])).toBeUndefined();
      } finally {
        await pool.close();
      }
    });
  }

  it('runs nothing on workers from the TypeScript sources (no worker script to start)', () => {
    expect(injectWorkerFile()).toBeUndefined();
  });

  it('asks for no worker with LINKERD_TS_INJECT_WORKERS=0, and starts them after 2 MiB by default', () => {
    expect(workerPlan({ LINKERD_TS_INJECT_WORKERS: '0' }).count).toBe(0);
    expect(workerPlan({ LINKERD_TS_INJECT_WORKERS: '3', LINKERD_TS_INJECT_WORKERS_AFTER: '10' })).toEqual({ count: 3, after: 10 });
    const plan = workerPlan({});
    expect(plan.after).toBe(2 << 20);
    expect(plan.count).toBe(os.availableParallelism() > 1 ? Math.min(4, os.availableParallelism() - 1) : 0);
    expect(() => workerPlan({ LINKERD_TS_INJECT_WORKERS: '17' })).toThrow('LINKERD_TS_INJECT_WORKERS must be a whole number from 0 to 16');
  });
});
