import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastInjectStream, injectStream, type InjectSettings, type InjectStreamResult } from '../../../src/core/inject/inject.js';
import { UserError } from '../../../src/core/errors.js';
import { parseYamlStream } from '../../../src/core/manifest/stream.js';
import { segmentsOf } from '../../../src/core/manifest/segments.js';
import { SETTINGS, manifest, settings } from './generators.js';
import { ROOT } from './support.js';
import { variedWorkload, workload } from '../../../bench/workload.mjs';

/*
 * inject's fast path (a document read from the CST and patched as text) against the Document
 * path, document by document: whenever the fast path answers, its output, reports, notes and
 * errors are the Document path's, byte for byte; where it cannot be sure it gives way.
 */

type Outcome = { result: InjectStreamResult } | { thrown: string };

function documentPath(text: string, s: InjectSettings): Outcome {
  try {
    return { result: injectStream(parseYamlStream({ name: 'm.yaml', text }), s, 'auto') };
  } catch (e) {
    if (e instanceof UserError) return { thrown: e.message };
    throw e;
  }
}

/** Checks every document of `text`; returns how many the fast path took. */
async function compare(text: string, s: InjectSettings): Promise<number> {
  let taken = 0;
  for await (const seg of segmentsOf(text)) {
    const fast = fastInjectStream(seg.text, s);
    if (!fast) continue;
    taken++;
    const slow = documentPath(seg.text, s);
    expect(slow, seg.text).toEqual({ result: fast });
  }
  return taken;
}

/**
 * How many of the varied bench's first 200 workloads' documents the fast path takes: all of them
 * (200 ServiceAccounts, 200 workloads, 20 Services, 20 ConfigMaps), but the Services with --opaque-ports.
 */
const takenOfVaried = (s: InjectSettings) => 440 - (s.overrides.has('config.linkerd.io/opaque-ports') ? 20 : 0);

/** Hand-written layouts the generator does not produce; each is read by the fast path. */
const LAYOUTS: Record<string, string> = {
  'sequences indented under their key, 4-space indent': `apiVersion: apps/v1
kind: Deployment
metadata:
    name: web
spec:
    template:
        metadata:
            labels:
                app: web
        spec:
            initContainers:
              - name: setup
                image: busybox
            containers:
              -   name: web
                  image: nginx
            volumes:
              - name: data
                emptyDir: {}
`,
  'comments everywhere, quoted keys, block scalars': `# top
apiVersion: v1 # trailing
kind: Pod
metadata:
  name: "pod-a"   # quoted
  'namespace': prod
  annotations:
    note: |
      two
      lines
    "example.com/x": 'single'
spec:
  # before containers
  containers:
  # before the item
  - name: app
    image: nginx
    command: >-
      folded
      text
  # after the last item
`,
  'a CronJob, sequences at the key column, a trailing comment-only line': `apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly
spec:
  schedule: "*/5 * * * *"
  jobTemplate:
    spec:
      template:
        metadata:
          labels:
            app: nightly
        spec:
          restartPolicy: OnFailure
          containers:
          - name: job
            image: busybox
            args: [sh, -c, "echo hi"]
    # the end
`,
  'YAML 1.1 scalars: octal, yes/no, null, floats': `apiVersion: apps/v1
kind: Deployment
metadata:
  name: 0777
  namespace: yes
spec:
  template:
    metadata:
      labels:
        app: web
      annotations:
        a: 0x1F
        b: ~
        c: 1.5e3
        d: .inf
    spec:
      hostNetwork: no
      automountServiceAccountToken: off
      containers:
      - name: web
        image: nginx
        ports:
        - containerPort: 0b1010
          protocol: UDP
`,
  'a ConfigMap passes through': `apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg
data:
  key: value
  other: "1"
`,
  'a document without a kind': `metadata:
  name: nothing
`,
};

/** One document per reason the fast path gives way; each must go through the Document path. */
const FALLBACKS: Record<string, string> = {
  'an anchor and an alias': `kind: Pod\nmetadata:\n  name: a\n  labels: &l {app: a}\nspec:\n  containers:\n  - name: a\n    image: x\n`,
  'a tag': `kind: Pod\nmetadata:\n  name: !!str a\nspec:\n  containers:\n  - name: a\n    image: x\n`,
  'a merge key': `kind: Pod\nmetadata:\n  name: a\n  labels:\n    <<: {app: a}\nspec:\n  containers:\n  - name: a\n    image: x\n`,
  'an explicit key': `kind: Pod\nmetadata:\n  ? name\n  : a\nspec:\n  containers:\n  - name: a\n    image: x\n`,
  'a duplicate key': `kind: Pod\nmetadata:\n  name: a\n  name: b\nspec:\n  containers:\n  - name: a\n    image: x\n`,
  'an empty value': `kind: Pod\nmetadata:\n  name: a\n  labels:\nspec:\n  containers:\n  - name: a\n    image: x\n`,
  'a non-string key': `kind: Pod\nmetadata:\n  name: a\n  labels:\n    80: http\nspec:\n  containers:\n  - name: a\n    image: x\n`,
  'a tab': `kind: Pod\nmetadata:\n  name: "a\tb"\nspec:\n  containers:\n  - name: a\n    image: x\n`,
  'CRLF line breaks': `kind: Pod\r\nmetadata:\r\n  name: a\r\nspec:\r\n  containers:\r\n  - name: a\r\n    image: x\r\n`,
  'a byte-order mark': `\ufeffkind: Pod\nmetadata:\n  name: a\nspec:\n  containers:\n  - name: a\n    image: x\n`,
  'a directive': `%YAML 1.2\n---\nkind: Pod\nmetadata:\n  name: a\nspec:\n  containers:\n  - name: a\n    image: x\n`,
  'a second document after "..."': `kind: Pod\nmetadata:\n  name: a\nspec:\n  containers:\n  - name: a\n    image: x\n...\nkind: Pod\n`,
  'a comment not separated by a space': `kind: Pod\nmetadata:\n  name: "a"#x\nspec:\n  containers:\n  - name: a\n    image: x\n`,
  'a flow mapping where annotations are added': `kind: Pod\nmetadata:\n  name: a\n  annotations: {a: b}\nspec:\n  containers:\n  - name: a\n    image: x\n`,
  'a flow sequence where containers are added': `kind: Pod\nmetadata:\n  name: a\n  labels:\n    app: a\nspec:\n  containers: [{name: a, image: x}]\n`,
  'a flow mapping spanning lines': `kind: Pod\nmetadata:\n  name: a\n  labels:\n    app: a\nspec:\n  containers:\n  - name: a\n    image: x\n    resources: {requests:\n      {cpu: 1}}\n`,
  'no pod template metadata': `kind: Deployment\nmetadata:\n  name: a\nspec:\n  template:\n    spec:\n      containers:\n      - name: a\n        image: x\n`,
  'no pod template': `kind: Deployment\nmetadata:\n  name: a\nspec:\n  replicas: 1\n`,
  'a previous injection (linkerd.io annotation)': `kind: Pod\nmetadata:\n  name: a\n  annotations:\n    linkerd.io/inject: enabled\nspec:\n  containers:\n  - name: a\n    image: x\n`,
  'a previous injection (proxy container)': `kind: Pod\nmetadata:\n  name: a\n  labels:\n    app: a\nspec:\n  containers:\n  - name: linkerd-proxy\n    image: x\n`,
  'a control-plane component label': `kind: Deployment\nmetadata:\n  name: a\n  labels:\n    linkerd.io/control-plane-component: identity\nspec:\n  template:\n    metadata:\n      labels: {app: a}\n    spec:\n      containers:\n      - name: a\n        image: x\n`,
  'a List': `kind: List\nitems:\n- kind: Pod\n  metadata:\n    name: a\n  spec:\n    containers:\n    - name: a\n      image: x\n`,
  'a Namespace': `kind: Namespace\nmetadata:\n  name: a\n`,
  'a Service': `kind: Service\nmetadata:\n  name: a\nspec:\n  ports:\n  - port: 80\n`,
  'a parse error': `kind: Pod\nmetadata:\n  name: [a\nspec: {\n`,
  'a comment-only document': `# nothing here\n`,
  'a sequence as the root': `- a\n- b\n`,
  'a mapping that shares the line of the key it is added after': `kind: Pod\nmetadata: {name: a}\nspec:\n  containers:\n  - name: a\n    image: x\n`,
  JSON: `{"kind": "Pod", "metadata": {"name": "a"}, "spec": {"containers": [{"name": "a", "image": "x"}]}}\n`,
};

describe('inject fast path', () => {
  it('gives the Document path’s bytes, reports and notes for the bench’s workloads, and takes every one of them', async () => {
    const text = Array.from({ length: 12 }, (_, i) => workload(i)).join('');
    for (const s of SETTINGS) expect(await compare(text, s)).toBe(12);
  });

  it('gives the Document path’s bytes, reports and notes for the varied bench’s 200 first workloads with --manual', async () => {
    // 200 workloads, each with its ServiceAccount, and a Service and a ConfigMap per ten.
    const text = Array.from({ length: 200 }, (_, i) => variedWorkload(i)).join('');
    for (const s of SETTINGS.filter((x) => x.manual)) expect(await compare(text, s)).toBe(takenOfVaried(s));
  });

  it('passes a Service through unless --opaque-ports is set or it carries linkerd metadata', async () => {
    const service = (meta: string) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: web # the front\n${meta}spec:\n  ports:\n  - port: 80\n`;
    const plain = service('');
    const marked = service('  annotations:\n    linkerd.io/created-by: linkerd/cli\n');
    for (const s of SETTINGS) {
      const opaque = s.overrides.has('config.linkerd.io/opaque-ports');
      expect(await compare(plain, s)).toBe(opaque ? 0 : 1);
      expect(fastInjectStream(marked, s)).toBeUndefined();
      if (!opaque) expect(fastInjectStream(plain, s)?.output?.text).toBe(plain);
    }
  });

  for (const [name, text] of Object.entries(LAYOUTS)) {
    it(`takes and matches: ${name}`, async () => {
      for (const s of SETTINGS) expect(await compare(text, s)).toBe(1);
    });
  }

  it('matches over every manifest fixture, with every setting', async () => {
    const dir = path.join(ROOT, 'fixtures/manifests');
    let taken = 0;
    for (const f of readdirSync(dir).filter((n) => /\.ya?ml$/.test(n))) {
      const text = readFileSync(path.join(dir, f), 'utf8');
      for (const s of SETTINGS) taken += await compare(text, s);
    }
    expect(taken).toBeGreaterThan(0);
  });

  it('matches over generated manifests (400), and takes most of their documents', async () => {
    let taken = 0;
    let docs = 0;
    await fc.assert(
      fc.asyncProperty(manifest, fc.nat({ max: SETTINGS.length - 1 }), async ({ text, count }, si) => {
        docs += count;
        taken += await compare(text, SETTINGS[si]);
      }),
      { numRuns: 400 },
    );
    expect(taken).toBeGreaterThan(docs / 2);
  });

  it('gives way or matches over generated manifests with random edits to their lines (1,000)', async () => {
    const EDITS = [
      ...[' # c', '#c', '\t', ' &a', ' *a', ' !!str', ': x', ' x: y', ' {}', ' []', '  ', '- ', '"', "'", '|', '>', ' ? ', '<<: ', '...', '%'],
      ...['"\\q"', ' {a: 1, a: 2}', ' [a, b: c]', ' {a: b', '\n', '\n    ', '\n- ', '\n---\n', ' yes', ' 0o17', ' "a\n b"', ' |2\n   x'],
    ];
    let taken = 0;
    let injected = 0;
    await fc.assert(
      fc.asyncProperty(
        manifest,
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat({ max: EDITS.length - 1 })), { minLength: 1, maxLength: 3 }),
        async ({ text }, edits) => {
          const lines = text.split('\n');
          for (const [l, c, e] of edits) {
            const at = l % lines.length;
            const line = lines[at] ?? '';
            const col = c % (line.length + 1);
            lines[at] = line.slice(0, col) + (EDITS[e] ?? '') + line.slice(col);
          }
          const edited = lines.join('\n');
          const s = settings(true, []);
          for await (const seg of segmentsOf(edited)) {
            const fast = fastInjectStream(seg.text, s);
            if (!fast) continue;
            taken++;
            if (fast.output?.text !== seg.text) injected++;
            expect(documentPath(seg.text, s), seg.text).toEqual({ result: fast });
          }
        },
      ),
      { numRuns: 1000 },
    );
    // Not vacuous: many edited documents are taken, and most of those are injected.
    expect(taken).toBeGreaterThan(500);
    expect(injected).toBeGreaterThan(taken / 2);
  });

  it('gives way to the Document path: a flag replaces an annotation value (the annotation wins with --manual, and matches)', async () => {
    const text = `kind: Pod\nmetadata:\n  name: a\n  annotations:\n    config.linkerd.io/opaque-ports: "9"\nspec:\n  containers:\n  - name: a\n    image: x\n`;
    const opaque = [{ name: 'opaque-ports', value: ['8080'] }];
    expect(fastInjectStream(text, settings(false, opaque))).toBeUndefined();
    expect(await compare(text, settings(true, opaque))).toBe(1);
  });

  for (const [name, text] of Object.entries(FALLBACKS)) {
    it(`gives way to the Document path: ${name}`, () => {
      const opaque = [{ name: 'opaque-ports', value: ['8080'] }];
      for (const s of [settings(false, opaque), settings(true, opaque)]) expect(fastInjectStream(text, s)).toBeUndefined();
    });
  }
});
