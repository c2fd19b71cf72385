import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBounded } from '../support/bounded.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkerd-ts-upgrade-stream-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('upgrade --from-manifests reads document by document (issue 24 item 13)', () => {
  it('stops at the first of 2,000,000 empty documents, in a 96 MiB heap', async () => {
    const file = path.join(dir, 'empty-docs.yaml');
    fs.writeFileSync(file, '---\n{}\n'.repeat(2_000_000));
    const r = await runBounded(['upgrade', '--from-manifests', file, '--kubeconfig', '/nonexistent/kubeconfig'], { maxOldSpaceMb: 96, maxRssMb: 600 });
    expect(r.killed).toBeUndefined();
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([
      `failed to parse Kubernetes objects from manifest ${file}: document 1 is not a Kubernetes object (apiVersion and kind are required)`,
    ]);
    expect(r.code).toBe(1);
  });

  it('names the first bad document after good ones', async () => {
    const file = path.join(dir, 'third.yaml');
    const ok = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: linkerd\n';
    fs.writeFileSync(file, `${ok}---\n${ok}---\n[1, 2]\n${'---\n{}\n'.repeat(100_000)}`);
    const r = await runBounded(['upgrade', '--from-manifests', file, '--kubeconfig', '/nonexistent/kubeconfig'], { maxOldSpaceMb: 96, maxRssMb: 600 });
    expect(r.stderr).toContain(`manifest ${file}: document 3 is not a Kubernetes object`);
    expect(r.code).toBe(1);
  });
});
