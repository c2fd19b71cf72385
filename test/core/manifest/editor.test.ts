import { describe, expect, it } from 'vitest';
import { parse, type YAMLMap } from 'yaml';
import type { DocEditor } from '../../../src/core/manifest/editor.js';
import { parseManifestStream } from '../../../src/core/manifest/stream.js';

/** Runs `change` on the only document of `text`; returns what is written, checked against the model. */
function edit(text: string, change: (ed: DocEditor, root: YAMLMap) => void): { out: string; fallback?: string } {
  const [d] = parseManifestStream({ name: 't.yaml', text }).docs;
  const ed = d.edit();
  change(ed, ed.root()!);
  const out = ed.render();
  // Whatever path wrote it, the text must read back as the edited model.
  expect(parse(out, { version: '1.1' })).toEqual(d.doc.toJS());
  return { out, fallback: ed.fallback };
}

const meta = (ed: DocEditor, root: YAMLMap) => ed.ensureMap(root, 'metadata');

describe('DocEditor line patches', () => {
  it('adds keys at the end of a block mapping, in its indentation, leaving every other byte alone', () => {
    const text = 'kind: Pod\nmetadata:\n    name: x   # keep me\n    labels: {a: b}\nspec: {}\n';
    const { out, fallback } = edit(text, (ed, root) => ed.setString(ed.ensureMap(meta(ed, root), 'annotations'), 'k', 'v'));
    expect(fallback).toBeUndefined();
    expect(out).toBe('kind: Pod\nmetadata:\n    name: x   # keep me\n    labels: {a: b}\n    annotations:\n        k: v\nspec: {}\n');
  });

  it('puts a created key before a named sibling, above that sibling’s comments', () => {
    const text = 'template:\n  # the pod\n  spec:\n    containers: []\n';
    const { out } = edit(text, (ed, root) => ed.setString(ed.ensureMap(ed.ensureMap(ed.getMap(root, 'template')!, 'metadata', 'spec'), 'labels'), 'a', 'b'));
    expect(out).toBe('template:\n  metadata:\n    labels:\n      a: b\n  # the pod\n  spec:\n    containers: []\n');
  });

  it('turns an empty flow collection into a block one', () => {
    const text = 'metadata:\n  annotations: {}\nspec:\n  volumes: []\n';
    const { out, fallback } = edit(text, (ed, root) => {
      ed.setString(ed.getMap(ed.getMap(root, 'metadata')!, 'annotations')!, 'a', 'on');
      ed.insertItems(ed.getSeq(ed.getMap(root, 'spec')!, 'volumes')!, 'end', [{ name: 'v', emptyDir: {} }]);
    });
    expect(fallback).toBeUndefined();
    expect(out).toBe('metadata:\n  annotations:\n    a: "on"\nspec:\n  volumes:\n  - name: v\n    emptyDir: {}\n');
  });

  it('prepends sequence items above the comments of the first item, in the sequence’s own layout', () => {
    const text = 'spec:\n  containers:\n      # the app\n      -   name: app\n          image: nginx\n';
    const { out } = edit(text, (ed, root) => ed.insertItems(ed.getSeq(ed.getMap(root, 'spec')!, 'containers')!, 'start', [{ name: 'proxy', args: ['a'] }]));
    expect(out).toBe(
      'spec:\n  containers:\n      -   name: proxy\n          args:\n          -   a\n      # the app\n      -   name: app\n          image: nginx\n',
    );
  });

  it('appends at the end of a document without a final newline, and after a block scalar', () => {
    expect(edit('a:\n  b: 1', (ed, root) => ed.setString(ed.getMap(root, 'a')!, 'c', 'x')).out).toBe('a:\n  b: 1\n  c: x');
    expect(edit('a:\n  s: |\n    line\n\nz: 1\n', (ed, root) => ed.setString(ed.getMap(root, 'a')!, 'c', 'x')).out).toBe(
      'a:\n  s: |\n    line\n  c: x\n\nz: 1\n',
    );
  });

  it('removes items and keys as whole lines, and the keys of what it emptied', () => {
    const text =
      'spec:\n  initContainers:\n  - name: linkerd-init\n    image: x\n  containers:\n  - name: app\n  - name: linkerd-proxy # gone\n    image: y\nmetadata:\n  labels:\n    linkerd.io/x: y\n';
    const { out } = edit(text, (ed, root) => {
      const spec = ed.getMap(root, 'spec')!;
      const gone = (i: unknown) => ['linkerd-init', 'linkerd-proxy'].includes((i as YAMLMap).get('name') as string);
      const init = ed.getSeq(spec, 'initContainers')!;
      ed.removeItems(init, gone);
      ed.removeItems(ed.getSeq(spec, 'containers')!, gone);
      const labels = ed.getMap(ed.getMap(root, 'metadata')!, 'labels')!;
      ed.deleteKey(labels, 'linkerd.io/x');
      ed.pruneEmpty(init, root);
      ed.pruneEmpty(labels, root);
    });
    expect(out).toBe('spec:\n  containers:\n  - name: app\n');
  });

  it('replaces a scalar in place and restores a removed key where it was', () => {
    const text = 'm:\n  a: "1"   # one\n  b: old\n  c: 3\n';
    const { out } = edit(text, (ed, root) => {
      const m = ed.getMap(root, 'm')!;
      ed.setString(m, 'a', '2');
      ed.deleteKey(m, 'b');
      ed.setString(m, 'b', 'new');
    });
    expect(out).toBe('m:\n  a: "2"   # one\n  b: new\n  c: 3\n');
  });

  it('keeps CRLF line endings', () => {
    const { out } = edit('m:\r\n  a: 1\r\n', (ed, root) => ed.setString(ed.getMap(root, 'm')!, 'b', 'x'));
    expect(out).toBe('m:\r\n  a: 1\r\n  b: x\r\n');
  });

  it('writes a private copy where an alias was, instead of changing the anchor', () => {
    const text = 'a:\n  labels: &l\n    app: web\nb:\n  labels: *l\n';
    const { out, fallback } = edit(text, (ed, root) => ed.setString(ed.ensureMap(ed.getMap(root, 'b')!, 'labels'), 'x', 'z'));
    expect(fallback).toBeUndefined();
    expect(out).toBe('a:\n  labels: &l\n    app: web\nb:\n  labels:\n    app: web\n    x: z\n');
  });

  it('gives the aliases of an anchor it changes the original content', () => {
    const text = 'a: &l\n  app: web\nb: *l\n';
    const { out } = edit(text, (ed, root) => ed.setString(ed.getMap(root, 'a')!, 'x', 'z'));
    expect(out).toBe('a: &l\n  app: web\n  x: z\nb:\n  app: web\n');
  });

  it('adds to and removes from a one-line flow mapping in flow style', () => {
    const text = '# c\nm: {a: 1, n: {x: [1, 2]}}\n';
    const added = edit(text, (ed, root) => ed.setString(ed.getMap(root, 'm')!, 'b', 'two, three'));
    expect(added.fallback).toBeUndefined();
    expect(added.out).toBe('# c\nm: {a: 1, n: {x: [1, 2]}, b: "two, three"}\n');
    const removed = edit('m: {a: 1, b: 2, c: 3}\n', (ed, root) => {
      ed.deleteKey(ed.getMap(root, 'm')!, 'a');
      ed.deleteKey(ed.getMap(root, 'm')!, 'c');
    });
    expect(removed.fallback).toBeUndefined();
    expect(removed.out).toBe('m: {b: 2}\n');
  });

  it('falls back to the yaml library for a flow mapping on several lines, keeping untouched flow style', () => {
    const text = '# c\nm: {a: 1,\n  n: {x: [1, 2]}}\n';
    const { out, fallback } = edit(text, (ed, root) => ed.setString(ed.getMap(root, 'm')!, 'b', 'two'));
    expect(fallback).toBe('added to a flow mapping');
    expect(out).toBe('# c\nm:\n  a: 1\n  n: {x: [1, 2]}\n  b: two\n');
  });

  it('writes the original bytes when the edits cancel out', () => {
    const text = 'm:\n  a:    x   # odd spacing\n';
    const [d] = parseManifestStream({ name: 't.yaml', text }).docs;
    const ed = d.edit();
    const m = ed.getMap(ed.root()!, 'm')!;
    ed.deleteKey(m, 'a');
    ed.setString(m, 'a', 'x');
    expect(ed.changed).toBe(true);
    expect(ed.unchanged()).toBe(true);
    expect(ed.render()).toBe(text);
  });
});
