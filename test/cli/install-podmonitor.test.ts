import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } };
const docs = (stdout: string) => yaml.loadAll(stdout).filter((d): d is Obj => d !== null && typeof d === 'object');

describe('linkerd install --set podMonitor.enabled=true (CLI)', () => {
  it('prints the three PodMonitors in YAML and JSON, and none by default', async () => {
    const r = await runCli(['install', '--ignore-cluster', '--set', 'podMonitor.enabled=true', '--set', 'podMonitor.serviceMirror.enabled=false']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const monitors = docs(r.stdout).filter((o) => o.kind === 'PodMonitor');
    expect(monitors.map((o) => [o.apiVersion, o.metadata.name, o.metadata.namespace])).toEqual([
      ['monitoring.coreos.com/v1', 'linkerd-controller', 'linkerd'],
      ['monitoring.coreos.com/v1', 'linkerd-proxy', 'linkerd'],
    ]);
    // Printed in full, not as YAML aliases of one another.
    expect(r.stdout).not.toMatch(/[&*]ref_\d/);

    const json = await runCli(['install', '--ignore-cluster', '-o', 'json', '--set', 'podMonitor.enabled=true']);
    expect(json.code).toBe(0);
    const kinds = json.stdout
      .trimEnd()
      .split('\n')
      .map((l) => (JSON.parse(l) as Obj).kind);
    expect(kinds.filter((k) => k === 'PodMonitor')).toHaveLength(3);

    const plain = await runCli(['install', '--ignore-cluster']);
    expect(docs(plain.stdout).some((o) => o.kind === 'PodMonitor')).toBe(false);
  });

  it('refuses a namespaceSelector it cannot render in one line, with nothing on stdout', async () => {
    const r = await runCli([
      'install',
      '--ignore-cluster',
      '--set',
      'podMonitor.enabled=true',
      '--set-string',
      'podMonitor.controller.namespaceSelector=- linkerd',
    ]);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(/^Error: podMonitor\.controller\.namespaceSelector: expected a namespace selector map[^\n]*\n$/);
  });
});
