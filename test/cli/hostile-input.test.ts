import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBounded } from '../support/bounded.js';
import { aliasBombValues, deepBlock, deepFlow, deploymentWithBomb, podWithSharedResources } from '../support/hostile.js';

/*
 * Issue 10 items 2, 3 and 11 through the built CLI: every hostile input is generated here, every
 * run fenced (memory and time, see support/bounded.ts). Each answer is one `Error:` line naming
 * the input, with nothing on stdout — never a crash, a hang, or "This is a bug".
 */

const CERTS = 'fixtures/certs';
const ANCHORS = ['--identity-trust-anchors-file', `${CERTS}/valid-trust-anchors.pem`];
let dir: string;
const tmp = (name: string, text: string) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
};

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l5d-hostile-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function expectOneLineError(r: { code: number | null; stdout: string; stderr: string; killed?: string }, message: string | RegExp): void {
  expect(r.killed).toBeUndefined();
  expect(r.code).toBe(1);
  expect(r.stdout).toBe('');
  expect(r.stderr).not.toMatch(/This is a bug|\n\s+at /);
  if (typeof message === 'string') expect(r.stderr).toBe(`Error: ${message}\n`);
  else expect(r.stderr).toMatch(message);
}

describe('every input has a size limit, checked while reading (issue 10 item 3)', () => {
  it('inject /dev/zero is refused at its first bytes (files are decoded while streamed)', async () => {
    const r = await runBounded(['inject', '--ignore-cluster', '/dev/zero'], { maxRssMb: 700 });
    expectOneLineError(r, '/dev/zero: binary data, not a YAML or JSON manifest');
  });

  it('inject - with endless standard input stops at the manifest limit', async () => {
    const r = await runBounded(['inject', '--ignore-cluster', '-'], { stdinFile: '/dev/zero', maxRssMb: 700 });
    expectOneLineError(r, '<stdin>: larger than the 256 MiB limit for manifests');
  });

  it('--set-file X=/dev/zero stops at the values limit', async () => {
    const r = await runBounded(['install', '--ignore-cluster', '--set-file', 'X=/dev/zero'], { maxRssMb: 300 });
    expectOneLineError(r, '/dev/zero: larger than the 16 MiB limit for values files');
  });

  it('-f /dev/zero stops at the values limit', async () => {
    const r = await runBounded(['install', '--ignore-cluster', '-f', '/dev/zero'], { maxRssMb: 300 });
    expectOneLineError(r, '/dev/zero: larger than the 16 MiB limit for values files');
  });

  it('-f - with endless standard input stops at the values limit', async () => {
    const r = await runBounded(['install', '--ignore-cluster', '-f', '-'], { stdinFile: '/dev/zero', maxRssMb: 300 });
    expectOneLineError(r, '<stdin>: larger than the 16 MiB limit for values files');
  });

  it('--identity-issuer-key-file /dev/zero stops at the certificate limit', async () => {
    const r = await runBounded(
      ['install', '--ignore-cluster', ...ANCHORS, '--identity-issuer-certificate-file', `${CERTS}/valid-crt.pem`, '--identity-issuer-key-file', '/dev/zero'],
      { maxRssMb: 300 },
    );
    expectOneLineError(r, '/dev/zero: larger than the 1 MiB limit for certificate and key files');
  });

  it('an identity file flag naming a FIFO whose writer never finishes is an i/o timeout after 5 s, not a hang', async () => {
    const fifo = path.join(dir, 'anchors-fifo');
    execFileSync('mkfifo', [fifo]);
    // Held open for reading and writing, so the CLI sees a writer that sends nothing.
    const held = fs.openSync(fifo, 'r+');
    try {
      const r = await runBounded(['install', '--ignore-cluster', '--identity-trust-anchors-file', fifo], { timeoutMs: 25_000 });
      expectOneLineError(r, `read ${fifo}: i/o timeout (no end of input within 5000 ms)`);
    } finally {
      fs.closeSync(held);
    }
  });

  it('a kubeconfig that never ends stops at the kubeconfig limit', async () => {
    const r = await runBounded(['install', '--kubeconfig', '/dev/zero'], { maxRssMb: 300 });
    expect(r.killed).toBeUndefined();
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('/dev/zero: larger than the 16 MiB limit for kubeconfig files');
  });

  it('a 600 MB file is refused by its size, not called binary data', async () => {
    const big = path.join(dir, 'big.yaml');
    fs.writeFileSync(big, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  x: ');
    fs.truncateSync(big, 600 * 1024 * 1024); // sparse: costs no disk
    const r = await runBounded(['inject', '--ignore-cluster', big], { maxRssMb: 200 });
    expectOneLineError(r, `${big}: larger than the 256 MiB limit for manifests`);
  });
});

describe('user mistakes are one clear line (issue 10 item 11)', () => {
  it('--set-file with a directory', async () => {
    const r = await runBounded(['install', '--ignore-cluster', '--set-file', `X=${dir}`]);
    expectOneLineError(r, `read ${dir}: is a directory`);
  });

  for (const flag of ['--identity-trust-anchors-file', '--identity-issuer-certificate-file', '--identity-issuer-key-file']) {
    it(`${flag} with a directory`, async () => {
      const r = await runBounded(['install', '--ignore-cluster', flag, dir]);
      expectOneLineError(r, `read ${dir}: is a directory`);
    });
  }

  for (const [name, text] of [
    ['deep.json', deepFlow(100_000)],
    ['deep-block.yaml', deepBlock(3000)],
  ] as const) {
    for (const cmd of ['inject', 'uninject']) {
      it(`${cmd} of ${name} nested past the limit`, async () => {
        const file = tmp(name, text);
        const r = await runBounded([cmd, ...(cmd === 'inject' ? ['--ignore-cluster'] : []), file]);
        expectOneLineError(r, new RegExp(`^Error: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: nested more than 256 levels deep\\n$`));
      });
    }
  }

  it('nesting within the limit is accepted', async () => {
    const file = tmp('nested-ok.yaml', `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  annotations: {}\nx:\n${deepBlock(200).replace(/^/gm, '  ')}`);
    const r = await runBounded(['inject', '--ignore-cluster', ...ANCHORS, '--manual', file]);
    expect(r.stderr).not.toContain('Error');
    expect(r.code).toBe(0);
  });

  it('a values file nested past the limit', async () => {
    const file = tmp('deep-values.yaml', `proxy: ${deepFlow(100_000)}`);
    const r = await runBounded(['install', '--ignore-cluster', '-f', file]);
    expectOneLineError(r, /^Error: .*deep-values\.yaml:1:\d+: nesting exceeded maxDepth \(256\)\n$/);
  });
});

describe('a document of countless scalars is refused before it is parsed', () => {
  // Parsed, 4.2 MB of `[1,1,…]` took the `yaml` parser over 3 GB; 24 MB of JSON, JSON.parse about 350 MB.
  it('inject of a YAML flow list of 2,100,000 values, at the line its document starts', async () => {
    const file = tmp('flow-scalars.yaml', `kind: Namespace\nmetadata: {name: a}\n---\nkind: ConfigMap\nlist: [${'1,'.repeat(2_100_000)}1]\n`);
    const r = await runBounded(['inject', '--ignore-cluster', file], { maxRssMb: 300, maxOldSpaceMb: 128 });
    expectOneLineError(
      r,
      `${file}:3:1: more than 2,000,000 maps, lists and values in one YAML document; refusing to parse it (give a large List as JSON, or as one document per object)`,
    );
  });

  it('analyze of a YAML block list of 2,100,000 values', async () => {
    const file = tmp('block-scalars.yaml', `kind: ConfigMap\nlist:\n${'- 1\n'.repeat(2_100_000)}`);
    const r = await runBounded(['analyze', file], { maxRssMb: 300, maxOldSpaceMb: 128 });
    expectOneLineError(r, new RegExp(`^Error: .*block-scalars\\.yaml:1:1: more than 2,000,000 maps, lists and values in one YAML document`));
  });

  it('install -f of a values file of 2,100,000 values with an unknown key: the error without a position, not a second parse', async () => {
    const file = tmp('many-values.yaml', `x: [${'1,'.repeat(2_100_000)}1]\n`);
    const r = await runBounded(['install', '--ignore-cluster', '-f', file], { maxRssMb: 900, maxOldSpaceMb: 512 });
    expectOneLineError(r, new RegExp(`^Error: ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: `));
  });

  it('inject of a JSON list of 12,000,000 values', async () => {
    const file = tmp('scalars.json', `{"kind":"ConfigMap","list":[${'1,'.repeat(12_000_000)}1]}`);
    const r = await runBounded(['inject', '--ignore-cluster', file], { maxRssMb: 300, maxOldSpaceMb: 128 });
    expectOneLineError(r, `${file}:1:1: more than 4,000,000 nodes (maps, lists and values) in one document; refusing to read it`);
  });
});

describe('alias bombs are measured by what they expand to (issue 10 item 2)', () => {
  it('install -f refuses a billion-laughs values file quickly, in little memory', async () => {
    const file = tmp('bomb-values.yaml', aliasBombValues());
    const r = await runBounded(['install', '--ignore-cluster', '-f', file], { maxRssMb: 300, maxOldSpaceMb: 128, timeoutMs: 20_000 });
    expectOneLineError(r, `${file}: aliases expand it past 1,000,000 nodes (an alias bomb?); refusing to expand it`);
  });

  it('inject refuses a bomb a workload uses, at its position', async () => {
    const file = tmp('used-bomb.yaml', deploymentWithBomb(true));
    const r = await runBounded(['inject', '--ignore-cluster', ...ANCHORS, '--manual', file], { maxRssMb: 300, maxOldSpaceMb: 128 });
    expectOneLineError(r, new RegExp(`^Error: .*used-bomb\\.yaml:\\d+:\\d+: aliases expand it past`));
  });

  it('a Pod with 119 uses of `resources: *res` is injected', async () => {
    const file = tmp('pod119.yaml', podWithSharedResources(119));
    const r = await runBounded(['inject', '--ignore-cluster', ...ANCHORS, '--manual', file]);
    expect(r.stderr).toContain('pod "many" injected');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('name: linkerd-proxy');
    expect(r.stdout.match(/resources: \*res/g)).toHaveLength(118);
  });

  it("uninject accepts inject's own output of a manifest with an unused bomb", async () => {
    const file = tmp('unused-bomb.yaml', deploymentWithBomb(false));
    const injected = await runBounded(['inject', '--ignore-cluster', ...ANCHORS, '--manual', file], { maxRssMb: 300 });
    expect(injected.code).toBe(0);
    expect(injected.stdout).toContain('linkerd-proxy');
    const out = tmp('unused-bomb-injected.yaml', injected.stdout);
    const r = await runBounded(['uninject', out], { maxRssMb: 300, maxOldSpaceMb: 128 });
    expect(r.stderr).toContain('deployment "web" uninjected');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('linkerd-proxy');
    expect(r.stdout).toContain('i: &i [*h');
  });

  it('inject -o json refuses to expand an unused bomb into JSON', async () => {
    const file = tmp('unused-bomb-json.yaml', deploymentWithBomb(false));
    const r = await runBounded(['inject', '--ignore-cluster', ...ANCHORS, '--manual', '-o', 'json', file], { maxRssMb: 300, maxOldSpaceMb: 128 });
    expectOneLineError(r, /aliases expand it past 1,000,000 nodes/);
  });
});
