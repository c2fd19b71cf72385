import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

type Obj = { kind: string; metadata: { name: string }; data?: Record<string, string> };

const docs = (stdout: string) => yaml.loadAll(stdout).filter((d): d is Obj => d !== null && typeof d === 'object');
const configValues = (stdout: string) => {
  const cm = docs(stdout).find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'linkerd-config')!;
  return yaml.load(cm.data!.values) as Record<string, unknown>;
};

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'l5d-install-values-stdin-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('linkerd install -f - (CLI)', () => {
  it('renders with values piped through stdin, ordered among -f files and under --set', async () => {
    const r = await runCli(['install', '--ignore-cluster', '-f', '-'], { input: 'controllerLogLevel: debug\ncontrollerReplicas: 2\n' });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(configValues(r.stdout)).toMatchObject({ controllerLogLevel: 'debug', controllerReplicas: 2 });

    const local = join(dir, 'local.yaml');
    writeFileSync(local, 'controllerLogLevel: trace\n');
    const level = async (args: string[]) => {
      const out = await runCli(['install', '--ignore-cluster', ...args], { input: 'controllerLogLevel: debug\n' });
      expect(out.stderr).toBe('');
      return configValues(out.stdout).controllerLogLevel;
    };
    expect(await level(['-f', local, '--values', '-'])).toBe('debug');
    expect(await level(['-f', '-', '-f', local])).toBe('trace');
    expect(await level(['-f', '-', '--set', 'controllerLogLevel=warn'])).toBe('warn');
  });

  it('fails in one line naming <stdin> or the flag, with nothing on stdout', async () => {
    const twice = await runCli(['install', '--ignore-cluster', '-f', '-', '-f', '-'], { input: 'controllerReplicas: 2\n' });
    expect([twice.code, twice.stdout, twice.stderr]).toEqual([1, '', 'Error: -f -: standard input can be read only once, but -f - was given 2 times\n']);

    const typo = await runCli(['install', '--ignore-cluster', '-f', '-'], { input: 'controllerLogLevle: debug\n' });
    expect([typo.code, typo.stdout, typo.stderr]).toEqual([1, '', 'Error: <stdin>:1:1: controllerLogLevle: unknown key\n']);

    const malformed = await runCli(['install', '--ignore-cluster', '-f', '-'], { input: 'proxy:\n  logLevel: info\n   ports: 4191\n' });
    expect([malformed.code, malformed.stdout]).toEqual([1, '']);
    expect(malformed.stderr).toMatch(
      /^Error: <stdin>:3:\d+: bad indentation of a mapping entry\na values file is one YAML document: a map of chart values \(as `helm show values` prints them\)\n$/,
    );
  });

  it('mentions URLs and - in the help of -f, --values', async () => {
    const r = await runCli(['install', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/-f, --values strings\s+Specify values in a YAML file or a URL, or - for standard input \(can specify multiple\)/);
  });
});
