import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

/*
 * Issues 18 and 22: a value a chart does not know, in an `-f` file, is named by its key path AND by
 * the file, line and column of the key (`bad.yaml:3:3: proxy.proxyy: unknown key`), for every
 * command on the generic chart engine.
 */

let dir: string;
const file = (name: string, text: string): string => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
};
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l5d-values-pos-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('an unknown key in a values file names file:line:col and the key path', () => {
  it('install: a nested key, after a comment and a known key', async () => {
    const f = file('install.yaml', '# mine\nproxy:\n  logLevel: info\n  proxyy: 1\n');
    const r = await runCli(['install', '--ignore-cluster', '-f', f]);
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', `Error: ${f}:4:3: proxy.proxyy: unknown key\n`]);
  });

  it('install: a key inside a list item, and the second of two files', async () => {
    const ok = file('ok.yaml', 'controllerLogLevel: debug\n');
    const f = file('list.yaml', 'imagePullSecrets:\n  - name: a\n  - name: b\n    nam: c\n');
    const r = await runCli(['install', '--ignore-cluster', '-f', ok, '-f', f]);
    expect([r.code, r.stderr]).toEqual([1, `Error: ${f}:4:5: imagePullSecrets[1].nam: unknown key\n`]);
  });

  it('install: a value of the wrong type is placed at its key', async () => {
    const f = file('type.yaml', 'proxy:\n  ports:\n    admin: "x"\n');
    const r = await runCli(['install', '--ignore-cluster', '-f', f]);
    expect([r.code, r.stderr]).toEqual([1, `Error: ${f}:3:5: proxy.ports.admin: expected number, got string\n`]);
  });

  it("upgrade --from-manifests (upgrade prints its errors without cobra's `Error: `, as upgradeErrorf does)", async () => {
    const install = await runCli(['install', '--ignore-cluster']);
    const manifests = file('installed.yaml', install.stdout);
    const f = file('up.yaml', 'proxy:\n  proxyy: 1\n');
    const r = await runCli(['upgrade', '--from-manifests', manifests, '-f', f]);
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', `${f}:2:3: proxy.proxyy: unknown key\n`]);
  });

  it('viz install', async () => {
    const f = file('viz.yaml', 'tap:\n  replicas: 1\n  bogus: 3\n');
    const r = await runCli(['viz', 'install', '--ignore-cluster', '-f', f]);
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', `Error: ${f}:3:3: tap.bogus: unknown key\n`]);
  });

  it('multicluster install', async () => {
    const f = file('mc.yaml', 'gateway:\n  enabeld: true\n');
    const r = await runCli(['multicluster', 'install', '--ignore-cluster', '-f', f]);
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', `Error: ${f}:2:3: gateway.enabeld: unknown key\n`]);
  });

  it('install-cni', async () => {
    const f = file('cni.yaml', 'logLevel: debug\niptablesMod: nft\n');
    const r = await runCli(['install-cni', '-f', f]);
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', `Error: ${f}:2:1: iptablesMod: unknown key\n`]);
  });

  it('a YAML syntax error also says what --values accepts', async () => {
    const f = file('syntax.yaml', 'a: [\n');
    const r = await runCli(['install', '--ignore-cluster', '-f', f]);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      1,
      '',
      `Error: ${f}:2:1: unexpected end of the stream within a flow collection\na values file is one YAML document: a map of chart values (as \`helm show values\` prints them)\n`,
    ]);
  });
});
