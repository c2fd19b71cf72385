import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/families/analyze/finding.js';
import { findingsJson } from '../../../src/families/analyze/print/json.js';
import { readInputs } from '../../../src/families/analyze/read.js';
import { runAnalyze } from '../../../src/families/analyze/run.js';
import { REPO_ROOT, runCli } from '../../support/cli.js';
import { expectGoldenFile } from '../../support/golden.js';

/*
 * `linkerd analyze` on what `helm template` prints: one stream of `---` documents, each opened by
 * a `# Source: <chart>/templates/<file>` comment, Helm's labels and hook annotations, a template
 * that rendered nothing (a document holding only its Source comment), and the chart's policy.
 */

const DIR = path.join(REPO_ROOT, 'fixtures/analyze/helm-booksapp');
const RENDERED = path.join(DIR, 'rendered.yaml');
const base = { useCluster: false, failOn: 'error' as const, suppress: [], controlPlaneNamespace: 'linkerd', kube: { asGroup: [] } };

async function findingsOf(inputs: string[], readers = {}): Promise<Finding[]> {
  return (await runAnalyze({ ...base, inputs, readers })).findings;
}

const stdin = (text: string) => ({ stdin: () => Promise.resolve(Buffer.from(text)) });

describe('linkerd analyze: a Helm-rendered app (booksapp chart)', () => {
  const text = readFileSync(RENDERED, 'utf8');
  const lines = text.split('\n');

  it('gives the reviewed findings (golden)', async () => {
    const json = findingsJson(await findingsOf([RENDERED]))
      .split(path.join(REPO_ROOT, '/'))
      .join('');
    expectGoldenFile(path.join(DIR, 'findings.golden.json'), json);
  });

  it('reads every rendered object, and nothing from a template that rendered nothing', async () => {
    const { objects } = await readInputs([RENDERED], 'default');
    const documents = text.split(/^---$/m).filter((d) => /^\s*kind:/m.test(d));
    expect(objects).toHaveLength(documents.length);
    expect(objects.map((o) => o.kind)).toContain('Pod');
    expect(text).toMatch(/^# Source: booksapp\/templates\/hpa\.yaml\n---$/m);
    expect(new Set(objects.map((o) => o.namespace))).toEqual(new Set(['booksapp']));
  });

  it('points each finding at a field line of its own Source document (never a comment or separator)', async () => {
    const findings = await findingsOf([RENDERED]);
    expect(findings.length).toBeGreaterThan(0);
    for (const f of findings) {
      const line = lines[f.line - 1] ?? '';
      expect(line.trim()).not.toMatch(/^(#|---|$)/);
      // The nearest `metadata.name` above the line belongs to the resource the finding is about.
      const above = lines.slice(0, f.line).reverse();
      const docStart = above.findIndex((l) => l === '---');
      const doc = above.slice(0, docStart).reverse().join('\n');
      expect(doc).toContain(`kind: ${f.resource.kind}`);
      expect(doc).toMatch(new RegExp(`^  name: "?${f.resource.name}"?$`, 'm'));
    }
  });

  it('finds the same from standard input (as `helm template … | linkerd analyze -`)', async () => {
    const fromFile = await findingsOf([RENDERED]);
    const fromStdin = await findingsOf(['-'], stdin(text));
    const strip = (fs: Finding[]) => fs.map(({ file: _f, ...rest }) => rest);
    expect(strip(fromStdin)).toEqual(strip(fromFile));
  });

  it('is not changed by the Source comments or the empty documents', async () => {
    const bare = text
      .split('\n')
      .filter((l) => !l.startsWith('# Source:'))
      .join('\n')
      .replace(/^---\n(?=---$)/gm, '');
    expect(bare).not.toContain('# Source:');
    const key = (f: Finding) => `${f.code} ${f.resource.kind}/${f.resource.name} ${f.message}`;
    expect((await findingsOf(['-'], stdin(bare))).map(key)).toEqual((await findingsOf([RENDERED])).map(key));
  });

  it('exits 1 (errors found) and 0 once they are suppressed', async () => {
    const r = await runCli(['analyze', RENDERED]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('LA7001');
    const quiet = await runCli(['analyze', '--suppress', 'LA7001', '--suppress', 'LA4002=Server/books', RENDERED]);
    expect([quiet.code, quiet.stderr]).toEqual([0, '']);
  });
});
