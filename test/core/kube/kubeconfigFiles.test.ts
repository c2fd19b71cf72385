import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadKubeConfig } from '../../../src/core/kube/kubeconfig.js';

/* Issue 24 item 17: the files of $KUBECONFIG are read once each, within one size budget. */

const MiB = 1 << 20;
let dir: string;

/** A kubeconfig of about `mib` MiB: one context, and an unused user whose token is padding. */
function kubeconfig(name: string, mib: number): string {
  const file = path.join(dir, name);
  const text = [
    'apiVersion: v1',
    'kind: Config',
    `current-context: ${name}`,
    'clusters:',
    `- name: ${name}`,
    '  cluster: {server: "https://127.0.0.1:1"}',
    'contexts:',
    `- name: ${name}`,
    `  context: {cluster: ${name}, user: ${name}}`,
    'users:',
    `- name: ${name}`,
    '  user: {token: t}',
    `- name: ${name}-padding`,
    `  user: {token: ${'A'.repeat(mib * MiB)}}`,
    '',
  ].join('\n');
  fs.writeFileSync(file, text);
  return file;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l5d-kubeconfig-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('$KUBECONFIG', () => {
  it('shares one 16 MiB budget among its files', async () => {
    const files = ['a', 'b', 'c'].map((n) => kubeconfig(n, 6));
    await expect(loadKubeConfig({ asGroup: [] }, { KUBECONFIG: files.join(path.delimiter) })).rejects.toThrow(
      `error loading config file "${files[2]}": the files of KUBECONFIG together are larger than the 16 MiB limit for kubeconfig files`,
    );
  });

  it('reads a file listed many times, or under another name, once: it fits the budget once', async () => {
    const file = kubeconfig('once', 6);
    const link = path.join(dir, 'once-link');
    fs.symlinkSync(file, link);
    const list = [...Array<string>(300).fill(file), link, path.join(dir, '.', 'once')].join(path.delimiter);
    const resolved = await loadKubeConfig({ asGroup: [] }, { KUBECONFIG: list });
    expect(resolved.contextName).toBe('once');
    expect(resolved.config.users.map((u) => u.name)).toEqual(['once', 'once-padding']);
  });

  it('a single file may use the whole budget, and is refused past it', async () => {
    const big = kubeconfig('big', 17);
    await expect(loadKubeConfig({ asGroup: [] }, { KUBECONFIG: big })).rejects.toThrow(
      `error loading config file "${big}": ${big}: larger than the 16 MiB limit for kubeconfig files`,
    );
  });
});
