import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBounded } from '../support/bounded.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkerd-ts-worker-heap-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A Deployment of about 250 KB whose container env is a dense flow list: cheap in bytes, dear in nodes. */
function denseDeployment(i: number): string {
  const env = Array.from({ length: 250_000 / 3 }, () => '{}').join(',');
  return `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web${i}\nspec:\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx\n        env: [${env}]\n`;
}

describe('inject on worker threads never fails what one thread can do (issue 24 item 16)', () => {
  it('injects documents whose batches outgrow a worker’s 64 MB heap on the main thread instead', async () => {
    const file = path.join(dir, 'dense.yaml');
    const count = 4;
    fs.writeFileSync(file, Array.from({ length: count }, (_, i) => denseDeployment(i)).join('---\n'));
    const r = await runBounded(['inject', '--ignore-cluster', file], {
      env: { LINKERD_TS_INJECT_WORKERS: '1', LINKERD_TS_INJECT_WORKERS_AFTER: '0' },
      maxRssMb: 1500,
      timeoutMs: 300_000,
    });
    expect(r.killed).toBeUndefined();
    expect(r.stderr).not.toContain('worker thread');
    expect(r.code).toBe(0);
    // (runBounded keeps 1 MiB of stdout: the report on stderr says what was written.)
    expect(r.stdout).toMatch(/^apiVersion: apps\/v1\nkind: Deployment\n/);
    expect(r.stderr.match(/^deployment "web\d" injected$/gm)).toHaveLength(count);
  }, 320_000);
});
