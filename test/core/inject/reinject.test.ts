import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { inject, M } from './support.js';

const data = (text: string) => parseAllDocuments(text).map((d) => d.toJS());

/* Re-injecting an injected manifest (linkerd/linkerd2#1970): the old proxy spec is replaced. */

describe('re-injection', () => {
  it('with new flags gives what injecting the original with those flags gives', async () => {
    for (const file of ['shop.yaml', 'list.yaml', 'overrides.yaml']) {
      const first = await inject([M(file)], { manual: true });
      const again = await inject(['-'], { manual: true, stdin: first.stdout, flags: { 'proxy-memory-limit': '250Mi', 'native-sidecar': false } });
      const direct = await inject([M(file)], { manual: true, flags: { 'proxy-memory-limit': '250Mi', 'native-sidecar': false } });
      // Same data; keys the earlier run wrote keep their places, so the order of annotations may differ.
      expect(data(again.stdout), file).toEqual(data(direct.stdout));
    }
  });

  it('lets a new flag replace the annotation the previous run’s flag wrote, and says so', async () => {
    const first = await inject([M('list.yaml')], { manual: true, flags: { 'proxy-cpu-request': '100m' } });
    const again = await inject(['-'], { manual: true, stdin: first.stdout, flags: { 'proxy-cpu-request': '200m' } });
    expect(again.stdout).toContain('config.linkerd.io/proxy-cpu-request: 200m');
    expect(again.stdout).toMatch(/requests:\n\s+cpu: 200m/);
    expect(again.stdout).not.toMatch(/: 100m$/m);
    expect(again.stderr).toContain('‼ deployment/web: --proxy-cpu-request 200m replaces annotation config.linkerd.io/proxy-cpu-request: 100m on the input\n');
  });

  it('moves between the native, classic and CNI layouts without leftovers', async () => {
    const native = await inject([M('list.yaml')], { manual: true, debugSidecar: true });
    const cni = await inject(['-'], { manual: true, stdin: native.stdout, values: M('values/cni.yaml') });
    expect(cni.stdout).not.toContain('linkerd-init');
    expect(cni.stdout).not.toContain('linkerd-proxy-init-xtables-lock');
    expect(cni.stdout.match(/^ *(- )?name: linkerd-debug$/gm)).toHaveLength(1);
    const classic = await inject(['-'], { manual: true, stdin: cni.stdout, flags: { 'native-sidecar': false } });
    expect(classic.stdout).not.toContain('linkerd-network-validator');
    const containers = (text: string) => data(text)[0].items[0].spec.template.spec;
    expect(containers(classic.stdout).containers.map((c: { name: string }) => c.name)).toEqual(['linkerd-proxy', 'web', 'linkerd-debug']);
    expect(containers(classic.stdout).initContainers.map((c: { name: string }) => c.name)).toEqual(['linkerd-init']);
  });

  it('turns a --manual injection back into annotations', async () => {
    const manual = await inject([M('list.yaml')], { manual: true });
    const annotated = await inject(['-'], { stdin: manual.stdout });
    const direct = await inject([M('list.yaml')]);
    expect(annotated.stdout).toBe(direct.stdout);
  });
});
