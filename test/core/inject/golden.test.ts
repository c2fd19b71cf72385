import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { expectGolden, inject, uninject, M, ROOT, type InjectOptions } from './support.js';

/*
 * Golden files: the exact stdout and stderr of inject/uninject over the fixtures in
 * fixtures/manifests. Regenerate with UPDATE_GOLDEN=1 and read the diff before accepting it.
 */

interface Case {
  name: string;
  inputs: string[];
  options?: InjectOptions;
  exitCode?: number;
}

const CASES: Case[] = [
  // every kind, annotation mode and the full proxy spec
  { name: 'shop-annotated', inputs: [M('shop.yaml')] },
  { name: 'shop-manual', inputs: [M('shop.yaml')], options: { manual: true } },
  { name: 'shop-verbose', inputs: [M('shop.yaml')], options: { verbose: true } },
  // proxy flags
  {
    name: 'shop-ports-annotated',
    inputs: [M('shop.yaml')],
    options: { flags: { 'opaque-ports': ['5432', '6379'], 'skip-inbound-ports': ['9090'], 'skip-outbound-ports': ['3306'] } },
  },
  {
    name: 'list-ports-manual',
    inputs: [M('list.yaml')],
    options: { manual: true, flags: { 'opaque-ports': ['8080'], 'skip-inbound-ports': ['9090', '9091'], 'skip-outbound-ports': ['3306'] } },
  },
  {
    name: 'list-resources-manual',
    inputs: [M('list.yaml')],
    options: {
      manual: true,
      flags: { 'proxy-cpu-request': '100m', 'proxy-cpu-limit': '1500m', 'proxy-memory-request': '20Mi', 'proxy-memory-limit': '250Mi' },
    },
  },
  {
    name: 'list-many-flags-annotated',
    inputs: [M('list.yaml')],
    options: {
      flags: {
        'proxy-log-level': 'debug',
        'proxy-uid': '2103',
        'proxy-gid': '2103',
        'admin-port': '5191',
        'image-pull-policy': 'Always',
        registry: 'registry.example.com/l5d',
        'wait-before-exit-seconds': '5',
        'native-sidecar': false,
        'default-inbound-policy': 'cluster-authenticated',
        'enable-external-profiles': true,
        'require-identity-on-inbound-ports': ['8080'],
      },
      debugSidecar: true,
      closeWaitTimeout: '90s',
    },
  },
  { name: 'list-ingress-annotated', inputs: [M('list.yaml')], options: { flags: { ingress: true } } },
  { name: 'list-ingress-debug-manual', inputs: [M('list.yaml')], options: { manual: true, flags: { ingress: true }, debugSidecar: true } },
  // existing annotations: honoured by --manual, a conflicting flag is named, a bad value ignored
  { name: 'overrides-manual', inputs: [M('overrides.yaml')], options: { manual: true, flags: { 'proxy-cpu-request': '100m' } } },
  { name: 'overrides-annotated', inputs: [M('overrides.yaml')], options: { flags: { 'proxy-cpu-request': '100m' } } },
  // other input shapes
  { name: 'web-json-annotated', inputs: [M('web.json')] },
  { name: 'web-json-manual', inputs: [M('web.json')], options: { manual: true } },
  { name: 'web-json-to-yaml', inputs: [M('web.json')], options: { output: 'yaml' } },
  { name: 'list-to-json', inputs: [M('list.yaml')], options: { output: 'json' } },
  { name: 'flow-style-manual', inputs: [M('flow-style.yaml')], options: { manual: true } },
  { name: 'values-file-manual', inputs: [M('list.yaml')], options: { manual: true, values: M('values/linkerd-config.yaml') } },
  // proxy tracing from the values: trace variables, the podinfo mount and volume
  { name: 'list-tracing-manual', inputs: [M('list.yaml')], options: { manual: true, values: M('values/tracing.yaml') } },
  // skips and warnings
  { name: 'disabled', inputs: [M('disabled.yaml')] },
  { name: 'disabled-with-flags', inputs: [M('disabled.yaml')], options: { flags: { 'proxy-cpu-request': '1' } } },
  { name: 'no-supported-objects', inputs: [M('values/linkerd-config.yaml')] },
  // errors: nothing on stdout, linkerd's text on stderr, exit 1
  { name: 'error-host-network', inputs: [M('errors/host-network.yaml')], exitCode: 1 },
  { name: 'error-istio', inputs: [M('errors/istio.yaml')], exitCode: 1 },
  { name: 'error-no-token', inputs: [M('errors/no-token.yaml')], options: { values: M('values/no-token-projection.yaml') }, exitCode: 1 },
  { name: 'error-control-plane', inputs: [M('errors/control-plane.yaml')], exitCode: 1 },
  { name: 'error-close-wait-manual', inputs: [M('list.yaml')], options: { manual: true, closeWaitTimeout: '2m' }, exitCode: 1 },
];

describe('inject goldens', () => {
  for (const c of CASES) {
    it(`${c.name}: matches its golden output`, async () => {
      const r = await inject(c.inputs, c.options);
      expect(r.exitCode).toBe(c.exitCode ?? 0);
      if (r.exitCode !== 0) expect(r.stdout).toBe('');
      expectGolden(`${c.name}.out`, r.stdout);
      expectGolden(`${c.name}.err`, r.stderr);
    });
  }
});

/*
 * The shop-manual variants: rather than two more ~2,000-line goldens, each variant's output is the
 * shop-manual golden with exactly the edits that variant makes, checked object by object.
 */
type Json = Record<string, unknown>;
interface Container extends Json {
  name: string;
}
interface PodSpec extends Json {
  containers: Container[];
  initContainers?: Container[];
  volumes?: Array<{ name: string }>;
}

const documents = (text: string): unknown[] => parseAllDocuments(text).map((d) => d.toJS() as unknown);
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every pod spec (an object with `containers`) and every annotations map in the documents. */
function walk(value: unknown, found: { pods: PodSpec[]; annotations: Json[] } = { pods: [], annotations: [] }) {
  if (Array.isArray(value)) for (const v of value) walk(v, found);
  else if (isObject(value)) {
    if (Array.isArray(value.containers)) found.pods.push(value as PodSpec);
    if (isObject(value.metadata) && isObject(value.metadata.annotations)) found.annotations.push(value.metadata.annotations);
    for (const v of Object.values(value)) walk(v, found);
  }
  return found;
}

const PROXY_STARTUP_PROBE = { failureThreshold: 120, httpGet: { path: '/ready', port: 4191 }, periodSeconds: 1 };
const AWAIT_HOOK = { postStart: { exec: { command: ['/usr/lib/linkerd/linkerd-await', '--timeout=2m', '--port=4191'] } } };
const VALIDATOR_ARGS = [
  '--log-format',
  'plain',
  '--log-level',
  'debug',
  '--connect-addr',
  '1.1.1.1:20001',
  '--listen-addr',
  '0.0.0.0:4140',
  '--timeout',
  '10s',
];

describe('shop-manual variants: the shop-manual golden with only their own edits', () => {
  const native = () => documents(readFileSync(path.join(ROOT, 'test/core/inject/golden/shop-manual.out'), 'utf8'));

  it('--native-sidecar=false: the proxy is the first regular container, held back by linkerd-await, and annotated so', async () => {
    const r = await inject([M('shop.yaml')], { manual: true, flags: { 'native-sidecar': false } });
    expect(r.exitCode).toBe(0);
    expectGolden('shop-manual.err', r.stderr);
    const classic = documents(r.stdout);
    const { pods, annotations } = walk(classic);
    expect(pods).toHaveLength(8);
    // The annotation says so on every injected pod template and on the namespace; then remove it.
    const marked = annotations.filter((a) => 'config.linkerd.io/proxy-enable-native-sidecar' in a);
    expect(marked).toHaveLength(pods.length + 1);
    for (const a of marked) {
      expect(a['config.linkerd.io/proxy-enable-native-sidecar']).toBe('false');
      delete a['config.linkerd.io/proxy-enable-native-sidecar'];
    }
    // Undo the proxy's move: back to the end of the init containers, as a native sidecar.
    for (const pod of pods) {
      const proxy = pod.containers.shift();
      expect(proxy?.name).toBe('linkerd-proxy');
      if (!proxy) continue;
      expect(proxy.lifecycle).toEqual(AWAIT_HOOK);
      expect(proxy).not.toHaveProperty('restartPolicy');
      expect(proxy).not.toHaveProperty('startupProbe');
      delete proxy.lifecycle;
      expect(pod.initContainers?.map((c) => c.name)).toEqual(['linkerd-init']);
      pod.initContainers?.push({ ...proxy, restartPolicy: 'Always', startupProbe: PROXY_STARTUP_PROBE });
    }
    expect(classic).toEqual(native());
  });

  it('with CNI values: the network validator replaces linkerd-init and its xtables lock volume', async () => {
    const r = await inject([M('shop.yaml')], { manual: true, values: M('values/cni.yaml') });
    expect(r.exitCode).toBe(0);
    expectGolden('shop-manual.err', r.stderr);
    const cni = documents(r.stdout);
    const { pods } = walk(cni);
    expect(pods).toHaveLength(8);
    const expected = native();
    for (const pod of walk(expected).pods) {
      const init = pod.initContainers?.[0];
      expect(init?.name).toBe('linkerd-init');
      if (!init || !isObject(init.securityContext)) throw new Error('linkerd-init without a securityContext');
      const { privileged: _privileged, capabilities: _capabilities, ...security } = init.securityContext;
      const { volumeMounts: _mounts, ...rest } = init;
      pod.initContainers?.splice(0, 1, {
        ...rest,
        name: 'linkerd-network-validator',
        command: ['/usr/lib/linkerd/linkerd2-network-validator'],
        args: VALIDATOR_ARGS,
        securityContext: { ...security, capabilities: { drop: ['ALL'] } },
      });
      expect(pod.volumes?.[0]?.name).toBe('linkerd-proxy-init-xtables-lock');
      pod.volumes?.shift();
    }
    expect(cni).toEqual(expected);
  });
});

describe('uninject goldens', () => {
  it('removes the proxy from a --manual injection and reports each object', async () => {
    const injected = await inject([M('shop.yaml')], { manual: true });
    const r = await uninject(['-'], { stdin: injected.stdout });
    expect(r.exitCode).toBe(0);
    // Byte for byte the input, its `labels: *web-labels` alias included.
    expect(r.stdout).toBe(readFileSync(path.join(ROOT, M('shop.yaml')), 'utf8'));
    expectGolden('shop-uninjected.out', r.stdout);
    expectGolden('shop-uninjected.err', r.stderr);
  });

  it('removes the CNI variant, the debug sidecar and ingress mode too', async () => {
    const injected = await inject([M('list.yaml')], { manual: true, values: M('values/cni.yaml'), debugSidecar: true, flags: { ingress: true } });
    const r = await uninject(['-'], { stdin: injected.stdout });
    expectGolden('list-cni-uninjected.out', r.stdout);
    expectGolden('list-cni-uninjected.err', r.stderr);
  });

  it('removes the trace variables, the podinfo mount and volume: a traced injection uninjects to the input', async () => {
    const injected = await inject([M('list.yaml')], { manual: true, values: M('values/tracing.yaml') });
    expect(injected.stdout).toContain('linkerd-podinfo');
    const r = await uninject(['-'], { stdin: injected.stdout });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toContain('podinfo');
    expect(r.stdout).not.toContain('TRACE');
    expect(r.stdout).toBe(readFileSync(path.join(ROOT, M('list.yaml')), 'utf8'));
    expectGolden('list-tracing-uninjected.err', r.stderr);
  });

  it('skips what was never injected', async () => {
    const r = await uninject([M('disabled.yaml')]);
    expectGolden('disabled-uninjected.err', r.stderr);
  });
});
