import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject, uninject } from './support.js';

/* The inject/uninject pipeline end to end: what is read, what is written, what is said. */

const DEPLOY = (labels: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    metadata:\n      labels: ${labels}\n    spec:\n      containers:\n      - name: app\n        image: nginx\n`;

describe('uninject(inject --manual x) is x, byte for byte', () => {
  const roundTrip = async (x: string) => {
    const injected = await inject(['-'], { manual: true, stdin: x });
    expect(injected.exitCode).toBe(0);
    expect(injected.stdout).toContain('linkerd-proxy');
    return { injected: injected.stdout, back: (await uninject(['-'], { stdin: injected.stdout })).stdout };
  };

  it('keeps a flow mapping in flow style, in both directions', async () => {
    const x = DEPLOY('{app: web, tier: "front, end"}');
    const { injected, back } = await roundTrip(x);
    expect(injected).toContain('labels: {app: web, tier: "front, end", linkerd.io/control-plane-ns: linkerd,');
    expect(back).toBe(x);
  });

  it('keeps a flow mapping that gains a whole mapping (the annotations) in flow style, in both directions', async () => {
    const x = 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: app\n    image: nginx\n';
    const { injected, back } = await roundTrip(x);
    expect(injected).toMatch(
      /^metadata: \{name: p, annotations: \{linkerd\.io\/created-by: linkerd\/cli \S+, .*\}, labels: \{linkerd\.io\/control-plane-ns: linkerd, .*\}\}$/m,
    );
    expect(back).toBe(x);
    // Annotation mode too: `annotations: {linkerd.io/inject: enabled}` inside the braces.
    const annotated = (await inject(['-'], { stdin: x })).stdout;
    expect(annotated).toContain('metadata: {name: p, annotations: {linkerd.io/inject: enabled}}\n');
    expect((await uninject(['-'], { stdin: annotated })).stdout).toBe(x);
  });

  it('keeps an alias an alias: the proxy labels go beside it under a merge key, and leave again', async () => {
    const x =
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels: &labels {app: web}\nspec:\n  selector:\n    matchLabels: *labels\n' +
      '  template:\n    metadata:\n      labels: *labels\n    spec:\n      containers:\n      - name: app\n        image: nginx\n';
    const { injected, back } = await roundTrip(x);
    expect(injected).toContain('      labels:\n        <<: *labels\n        linkerd.io/control-plane-ns: linkerd\n');
    expect(injected).toContain('    matchLabels: *labels\n');
    expect(back).toBe(x);
    // Re-injecting the output changes nothing.
    expect((await inject(['-'], { manual: true, stdin: injected })).stdout).toBe(injected);
  });

  it('keeps a byte-order mark, also where the yaml library writes the document', async () => {
    const block = `\ufeff${DEPLOY('\n        app: web')}`;
    expect((await roundTrip(block)).back).toBe(block);
    const flow =
      '\ufeff{apiVersion: apps/v1, kind: Deployment, metadata: {name: web},\n spec: {template: {spec: {containers: [{name: app, image: nginx}]}}}}\n';
    const { injected } = await roundTrip(flow);
    expect(injected.startsWith('\ufeffapiVersion: apps/v1\n')).toBe(true);
  });
});

describe('inject -o json: YAML types JSON has no word for', () => {
  it('writes !!binary as base64 and !!set as a mapping to nulls, not a Buffer dump or {}', async () => {
    const x =
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  key: !!binary aGVsbG8=\n---\napiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: t\nspec:\n  tags: !!set {a, b}\n';
    const r = await inject(['-'], { stdin: x, output: 'json' });
    expect(r.exitCode).toBe(0);
    const [secret, thing] = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { data?: unknown; spec?: unknown });
    expect(secret?.data).toEqual({ key: 'aGVsbG8=' });
    expect(thing?.spec).toEqual({ tags: { a: null, b: null } });
  });
});

describe('errors name the line in the whole input, not in the document', () => {
  it('counts the lines of the documents before', async () => {
    const x = `${DEPLOY('{app: web}')}---\n${DEPLOY('{app: web}')}---\nkind: Service\nmetadata: {name: [}\n`;
    await expect(inject(['-'], { stdin: x })).rejects.toThrow(/^<stdin>:28:\d+: /);
  });
});

describe('directories: what is read and what is skipped', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'l5d-dirs-'));
    const tree = path.join(dir, 'tree');
    mkdirSync(path.join(tree, 'sub'), { recursive: true });
    mkdirSync(path.join(dir, 'elsewhere'));
    mkdirSync(path.join(dir, 'empty'));
    writeFileSync(path.join(tree, 'a.yaml'), DEPLOY('{app: web}'));
    writeFileSync(path.join(tree, 'sub', 'b.yaml'), 'apiVersion: v1\nkind: Service\nmetadata:\n  name: b\n');
    writeFileSync(path.join(dir, 'elsewhere', 'c.yaml'), 'apiVersion: v1\nkind: Service\nmetadata:\n  name: c\n');
    symlinkSync(path.join(tree, 'a.yaml'), path.join(tree, 'a-link.yaml'));
    symlinkSync(path.join(dir, 'missing.yaml'), path.join(tree, 'dangling.yaml'));
    symlinkSync(path.join(dir, 'elsewhere'), path.join(tree, 'linked-dir'));
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    execFileSync('mkfifo', [path.join(tree, 'pipe-here')]);
    symlinkSync(path.join(dir, 'pipe'), path.join(tree, 'pipe-link'));
    symlinkSync('/dev/zero', path.join(tree, 'zero-link'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads files and links to files; names each entry it skips on stderr', async () => {
    const tree = path.join(dir, 'tree');
    const r = await inject([tree]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(
      [
        `‼ skipped ${path.join(tree, 'dangling.yaml')}: a dangling symbolic link`,
        `‼ skipped ${path.join(tree, 'linked-dir')}: a symbolic link to a directory`,
        `‼ skipped ${path.join(tree, 'pipe-here')}: a named pipe`,
        `‼ skipped ${path.join(tree, 'pipe-link')}: a symbolic link to a named pipe`,
        `‼ skipped ${path.join(tree, 'zero-link')}: a symbolic link to a device`,
      ].join('\n'),
    );
    // a.yaml, a-link.yaml and sub/b.yaml, in lexical order; nothing from the linked directory.
    expect(r.stderr.match(/deployment "web" injected/g)).toHaveLength(2);
    expect(r.stderr).toContain('service "b" skipped');
    expect(r.stderr).not.toContain('service "c"');
  });

  it('refuses an empty directory instead of printing nothing', async () => {
    await expect(inject([path.join(dir, 'empty')])).rejects.toThrow(`${path.join(dir, 'empty')}: no files to read in this directory`);
  });

  it('says how many entries were skipped when none could be read', async () => {
    const only = path.join(dir, 'only-links');
    mkdirSync(only);
    symlinkSync(path.join(dir, 'missing.yaml'), path.join(only, 'x.yaml'));
    await expect(inject([only])).rejects.toThrow(`${only}: no files to read in this directory (1 entry skipped)`);
  });
});
