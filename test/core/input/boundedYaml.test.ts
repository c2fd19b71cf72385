import fs from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, isSeq, parseAllDocuments, visit } from 'yaml';
import { describe, expect, it } from 'vitest';
import { countYamlCollections, yamlTextProblem } from '../../../src/core/input/boundedYaml.js';
import { MAX_YAML_DOCUMENT_NODES, YAML_DOCUMENT_TOO_LARGE, collectionBudget } from '../../../src/core/input/treeLimits.js';
import { REPO_ROOT } from '../../support/cli.js';
import { kubectlGetYaml } from '../../support/kubectlYaml.js';

/* Issue 24 item 12: a YAML text's collections are counted from its characters before any parser builds them. */

/** The maps and lists the `yaml` parser builds for a text. */
function built(text: string): number {
  let n = 0;
  const docs = parseAllDocuments(text);
  for (const doc of Array.isArray(docs) ? docs : []) {
    visit(doc, {
      Map: () => {
        n++;
      },
      Seq: () => {
        n++;
      },
    });
  }
  return n;
}

const counted = (text: string) => countYamlCollections(text).collections;

/** The most maps, lists and scalars the `yaml` parser builds for one document of a text. */
function builtNodes(text: string): number {
  let most = 0;
  const docs = parseAllDocuments(text);
  for (const doc of Array.isArray(docs) ? docs : []) {
    let n = 0;
    visit(doc, (_key, node) => {
      if (isMap(node) || isSeq(node) || isScalar(node)) n++;
    });
    most = Math.max(most, n);
  }
  return most;
}

const fixtures = ['manifests', 'manifests/parity', 'clusters', 'clusters/check'].flatMap((dir) =>
  fs
    .readdirSync(path.join(REPO_ROOT, 'fixtures', dir))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => path.join('fixtures', dir, f)),
);

describe('countYamlCollections', () => {
  it.each(fixtures)('never counts fewer collections than the parser builds, nor more than twice as many outside flow style: %s', (file) => {
    const text = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
    expect(counted(text)).toBeGreaterThanOrEqual(built(text));
    if (!file.includes('flow-style')) expect(counted(text)).toBeLessThanOrEqual(2 * built(text));
  });

  it.each([
    ['flow collections', 'x: [{}, {a: 1}, [1, [2]]]\n'],
    ['pairs inside a flow sequence (a map each)', 'x: [a: 1, b: 2, "c":3, \'d\':4]\n'],
    ['compact nested sequences and maps', '- - - a: 1\n      b: 2\n    - c: 3\n- d:\n  - e\n'],
    ['a sequence at its parent key’s column', 'a:\n- 1\n- 2\nb:\n- x: 1\n- y: 2\nc: 3\n'],
    ['explicit keys', '? a\n: 1\n? [b]\n: {c: 2}\n'],
    ['maps dedented back into their parents', 'a:\n  b:\n    c: 1\n  d:\n    e: 1\nf:\n  g: 1\n'],
    ['documents after markers', 'a: 1\n---\nb: 1\n--- \nc: [1]\n...\n---\nd: 1\n'],
    ['a list of one-key maps (one map per item)', 'x:\n' + '- a:\n'.repeat(50)],
    ['keys after block scalars and comments', 'a: |\n  x: "\n  [\nb:\n  # c: {\n  c: 1\nd: >-\n  - e\nf: [g]\n'],
    ['quoted scalars with indicators inside', 'a: "x: [y], - z"\nb: \'{c: d}\'\ne:\n  f: "#"\n  g: [h]\n'],
  ])('counts at least what the parser builds: %s', (_name, text) => {
    expect(counted(text)).toBeGreaterThanOrEqual(built(text));
  });

  it('counts `kubectl get -o yaml` with managedFields at one collection per more than 30 bytes, well inside the budget', () => {
    const sample = kubectlGetYaml(100);
    expect(counted(sample)).toBeGreaterThanOrEqual(built(sample));
    // Measured: one counted collection per 32 bytes (the parser builds one per 48).
    const text = kubectlGetYaml(2000);
    const n = counted(text);
    expect(text.length / n).toBeGreaterThan(30);
    expect(n).toBeLessThan(collectionBudget(text.length) / 1.8);
    expect(yamlTextProblem(text)).toBeUndefined();
  });
});

describe('yamlTextProblem', () => {
  const refusal = (budget: number) =>
    `more than ${budget.toLocaleString('en-US')} objects and lists for its size (one per 16 bytes, plus 100,000); refusing to parse it`;

  it('refuses a dense flow list past the budget for its size, and takes the same at the budget', () => {
    const over = `x: [${'{},'.repeat(150_000)}{}]\n`;
    expect(yamlTextProblem(over)?.reason).toBe(refusal(collectionBudget(over.length)));
    const under = `x: [${'{},'.repeat(99_000)}{}]\n${'#'.repeat(1_000_000)}\n`;
    expect(yamlTextProblem(under)).toBeUndefined();
  });

  it('refuses dense block collections (`- a:` lines) and flow-sequence pairs, which hold no brace', () => {
    const block = `x:\n${'- a:\n'.repeat(150_000)}`;
    expect(yamlTextProblem(block)?.reason).toBe(refusal(collectionBudget(block.length)));
    const pairs = `x: [${'a: 1,'.repeat(150_000)}]\n`;
    expect(yamlTextProblem(pairs)?.reason).toBe(refusal(collectionBudget(pairs.length)));
    const nested = `${'- '.repeat(120_000)}x\n`;
    expect(yamlTextProblem(nested)?.reason).toBe(refusal(collectionBudget(nested.length)));
  });
});

describe('the nodes of one YAML document, counted before the parser runs', () => {
  it.each(fixtures)('are never fewer than the parser builds: %s', (file) => {
    const text = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
    expect(countYamlCollections(text).nodes).toBeGreaterThanOrEqual(builtNodes(text));
  });

  it.each([
    ['a flow list of scalars', `x: [${'1,'.repeat(1000)}1]\n`],
    ['a block list of scalars', `x:\n${'- 1\n'.repeat(1000)}`],
    ['flow maps', `x: [${'{a: 1, b: c},'.repeat(300)}{}]\n`],
    ['documents of different sizes', `a: [1, 2]\n---\nb: [${'1,'.repeat(500)}1]\n---\nc: 1\n`],
  ])('are never fewer than the parser builds: %s', (_name, text) => {
    expect(countYamlCollections(text).nodes).toBeGreaterThanOrEqual(builtNodes(text));
  });

  it('refuse a document of scalars past the limit at the line where it starts, and count each document of a stream alone', () => {
    const half = Math.ceil(MAX_YAML_DOCUMENT_NODES * 0.6);
    const doc = (n: number) => `kind: ConfigMap\nlist: [${'1,'.repeat(n - 1)}1]\n`;
    const two = `${doc(half)}---\n${doc(half)}`;
    expect(yamlTextProblem(two)).toBeUndefined();
    const big = `${doc(half)}---\n${doc(MAX_YAML_DOCUMENT_NODES + 1)}`;
    expect(yamlTextProblem(big)).toEqual({ reason: YAML_DOCUMENT_TOO_LARGE, offset: doc(half).length });
    const block = `list:\n${'- 1\n'.repeat(MAX_YAML_DOCUMENT_NODES + 1)}`;
    expect(yamlTextProblem(block)?.reason).toBe(YAML_DOCUMENT_TOO_LARGE);
  });

  it('leave real `kubectl get -o yaml` far inside the limit (a 2,000-object List counts under half of it)', () => {
    const text = kubectlGetYaml(2000);
    const { nodes } = countYamlCollections(text);
    expect(nodes).toBeGreaterThanOrEqual(builtNodes(text));
    expect(nodes).toBeLessThan(MAX_YAML_DOCUMENT_NODES / 2);
  });
});
