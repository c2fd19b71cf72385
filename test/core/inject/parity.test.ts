import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { inject, M, uninject } from './support.js';

/*
 * Parity with linkerd's own inject test cases (cli/cmd/testdata/inject_*): the facts of each case,
 * reproduced with fixtures of our own (fixtures/manifests/parity/).
 */

const P = (f: string) => M(`parity/${f}`);
const docs = (text: string) => parseAllDocuments(text).map((d) => d.toJS() as Record<string, unknown>);
type Pod = {
  metadata: { annotations?: Record<string, string> };
  spec: { containers: Array<{ name: string; resources?: unknown }>; initContainers?: Array<{ name: string; resources?: unknown }> };
};
const podOf = (o: unknown) => (o as { spec: { template: Pod } }).spec.template;
/** Containers and init containers (the proxy is a native sidecar by default). */
const containersOf = (pod: Pod) => [...(pod.spec.initContainers ?? []), ...pod.spec.containers];
const namesOf = (pod: Pod) => containersOf(pod).map((c) => c.name);

describe('inject parity with linkerd', () => {
  it('joins a YAML file and a JSON file of one directory with "---", one stream YAML parsers read whole', async () => {
    const r = await inject([P('mixed')]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/\n---\n\{/);
    const parsed = parseAllDocuments(r.stdout);
    expect(parsed.every((d) => d.errors.length === 0)).toBe(true);
    expect(parsed.map((d) => (d.toJS() as { metadata: { name: string } }).metadata.name)).toEqual(['api', 'cart']);
    // One report for the whole directory, as linkerd prints it.
    expect(r.stderr).toBe('\ndeployment "api" injected\ndeployment "cart" injected\n\n');
  });

  it('joins JSON then YAML inputs into a stream that starts as YAML', async () => {
    const r = await inject([P('mixed/b-cart.json'), P('mixed/a-api.yaml')]);
    expect(r.stdout.startsWith('---\n{')).toBe(true);
    const parsed = parseAllDocuments(r.stdout);
    expect(parsed.every((d) => d.errors.length === 0)).toBe(true);
    expect(parsed.map((d) => (d.toJS() as { metadata: { name: string } }).metadata.name)).toEqual(['cart', 'api']);
  });

  it('keeps two JSON inputs a JSON stream', async () => {
    const r = await inject([P('mixed/b-cart.json'), P('mixed/b-cart.json')]);
    expect(r.stdout).not.toContain('---');
    expect(r.stdout).toMatch(/^\{[^]*\}\n\{[^]*\}\n$/);
  });

  it('re-injects a control-plane workload that has an old proxy (--manual --enable-debug-sidecar)', async () => {
    const r = await inject([P('injected-control-plane.yaml')], { manual: true, debugSidecar: true });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('\ndeployment "linkerd-tap" injected\n\n');
    const obj = docs(r.stdout)[0] as { metadata: { labels: Record<string, string> } };
    const pod = podOf(obj);
    expect(namesOf(pod).sort()).toEqual(['linkerd-debug', 'linkerd-init', 'linkerd-proxy', 'tap']);
    // The old proxy and init container are gone; a control-plane component keeps its linkerd metadata.
    expect(r.stdout).not.toContain('proxy:git-0123abcd');
    expect(r.stdout).not.toContain('proxy-init:v1.3.6');
    expect(r.stdout.match(/name: linkerd-identity-end-entity$/gm)).toHaveLength(2);
    expect(obj.metadata.labels['linkerd.io/control-plane-component']).toBe('tap');
    expect(pod.metadata.annotations?.['config.linkerd.io/enable-debug-sidecar']).toBe('true');
    expect(pod.metadata.annotations?.['linkerd.io/created-by']).not.toContain('git-0123abcd');
  });

  it('says --manual must be set for a control-plane workload before any other reason to skip it', async () => {
    const r = await inject([P('control-plane-host-network.yaml')]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Error transforming resources:\n--manual must be set when injecting control plane components\n');
  });

  it('keeps the empty items of a List and reports each as missing its kind', async () => {
    const r = await inject([P('list-with-nulls.yaml')], { manual: true });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe(
      '\ndeployment "web" injected\ndeployment "mail" injected\ndocument missing "kind" field, skipped\ndocument missing "kind" field, skipped\n\n',
    );
    const list = docs(r.stdout)[0] as { items: unknown[] };
    expect(list.items).toHaveLength(4);
    expect(list.items.slice(2)).toEqual([null, null]);
    expect(namesOf(podOf(list.items[0]))).toContain('linkerd-proxy');
  });

  it('writes the proxy’s resource quantities in canonical form', async () => {
    const r = await inject([M('list.yaml')], {
      manual: true,
      flags: { 'proxy-cpu-request': '0.5', 'proxy-cpu-limit': '1500m', 'proxy-memory-request': '0.5Gi', 'proxy-memory-limit': '1024Mi' },
    });
    expect(r.exitCode).toBe(0);
    const proxy = containersOf(podOf((docs(r.stdout)[0] as { items: unknown[] }).items[0])).find((c) => c.name === 'linkerd-proxy');
    expect(proxy?.resources).toEqual({ limits: { cpu: '1500m', memory: '1Gi' }, requests: { cpu: '500m', memory: '512Mi' } });
    // The annotations keep what the user wrote.
    expect(r.stdout).toContain('config.linkerd.io/proxy-cpu-request: "0.5"');
  });

  it('reports a document without a kind in linkerd’s words, and nothing else about it', async () => {
    const r = await inject([P('kindless.yaml')]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('\n‼ no supported objects found\n\nconfigmap "settings" skipped\ndocument missing "kind" field, skipped\nservice "web" skipped\n\n');
  });

  it('prints one report for a directory, with no lines for a file holding no document', async () => {
    const r = await inject([P('with-separator-only')]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('\ndeployment "api" injected\n\n');
  });

  it('uninject removes a control-plane component’s proxy and keeps its linkerd metadata', async () => {
    const r = await uninject([P('injected-control-plane.yaml')]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('\ndeployment "linkerd-tap" uninjected\n\n');
    const pod = podOf(docs(r.stdout)[0]);
    expect(namesOf(pod)).toEqual(['tap']);
    expect(r.stdout).not.toContain('linkerd-identity-end-entity');
    expect(r.stdout).toContain('linkerd.io/created-by: linkerd/cli git-0123abcd');
    expect(r.stdout).toContain('linkerd.io/proxy-deployment: linkerd-tap');
  });
});
