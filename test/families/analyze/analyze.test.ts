import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Ajv, Options } from 'ajv';
import * as ajvDraft04 from 'ajv-draft-04';
import fc from 'fast-check';
import { parse as parseJunit } from 'junit2json';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/families/analyze/finding.js';
import { findingsJson } from '../../../src/families/analyze/print/json.js';
import { findingsJunit } from '../../../src/families/analyze/print/junit.js';
import { findingsSarif } from '../../../src/families/analyze/print/sarif.js';
import { readInputs } from '../../../src/families/analyze/read.js';
import { analyze, RULES } from '../../../src/families/analyze/rules/index.js';
import { runAnalyze } from '../../../src/families/analyze/run.js';
import { parseSuppression, suppressed } from '../../../src/families/analyze/suppress.js';
import { REPO_ROOT, runCli } from '../../support/cli.js';
import { expectGoldenFile } from '../../support/golden.js';

// Ajv's draft-04 build, a CommonJS module: its class is the module's default export.
const Ajv04 = ajvDraft04.default as unknown as new (options: Options) => Ajv;

const CORPUS = path.join(REPO_ROOT, 'fixtures/analyze');
const OPTIONS = { trustDomain: 'cluster.local', controlPlaneNamespace: 'linkerd' };
const base = { useCluster: false, failOn: 'error' as const, suppress: [], controlPlaneNamespace: 'linkerd', kube: { asGroup: [] } };

async function findingsOf(args: string[], readers = {}): Promise<Finding[]> {
  return (await runAnalyze({ ...base, inputs: args, readers })).findings;
}

describe('linkerd analyze: the rule corpus', () => {
  const codes = readdirSync(path.join(CORPUS, 'rules')).sort();
  it('has a failing and a passing case for every rule', () => {
    expect(codes).toEqual(RULES.map((r) => r.code));
  });
  for (const code of codes) {
    it(`${code}: fail.yaml has the finding, pass.yaml does not`, async () => {
      const fail = await findingsOf([path.join(CORPUS, 'rules', code, 'fail.yaml')]);
      const pass = await findingsOf([path.join(CORPUS, 'rules', code, 'pass.yaml')]);
      expect(fail.map((f) => f.code)).toContain(code);
      expect(pass.map((f) => f.code)).not.toContain(code);
      for (const f of fail) expect(f.line).toBeGreaterThan(0);
    });
    // Further cases of a rule: fail-<case>.yaml must have the finding, pass-<case>.yaml must not.
    const variants = readdirSync(path.join(CORPUS, 'rules', code))
      .filter((f) => /^(fail|pass)-[a-z0-9-]+\.yaml$/.test(f))
      .sort();
    for (const file of variants) {
      it(`${code}: ${file} ${file.startsWith('fail') ? 'has' : 'does not have'} the finding`, async () => {
        const found = (await findingsOf([path.join(CORPUS, 'rules', code, file)])).map((f) => f.code);
        if (file.startsWith('fail')) expect(found).toContain(code);
        else expect(found).not.toContain(code);
      });
    }
  }
});

describe('linkerd analyze: LA4002 names only the routes that replace the probe route', () => {
  it('lists served HTTPRoutes, not a GRPCRoute or an HTTPRoute in an unserved version', async () => {
    const f = await findingsOf([path.join(CORPUS, 'rules', 'LA4002', 'fail-served-route.yaml')]);
    expect(f.find((x) => x.code === 'LA4002')?.message).toContain('and HTTPRoutes are attached to it (web-api):');
  });
});

describe('linkerd analyze: an emojivoto-style app', () => {
  const dir = path.join(CORPUS, 'emojivoto');
  it('gives the reviewed findings (golden)', async () => {
    const json = findingsJson(await findingsOf([dir]))
      .split(path.join(REPO_ROOT, '/'))
      .join('');
    expectGoldenFile(path.join(dir, 'findings.golden.json'), json);
  });
  it('gives the same findings from files, the directory, and stdin', async () => {
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .sort()
      .map((f) => path.join(dir, f));
    const strip = (fs: Finding[]) => fs.map(({ file: _f, ...rest }) => rest);
    const fromDir = await findingsOf([dir]);
    const fromFiles = await findingsOf(files);
    const stdin = files.map((f) => readFileSync(f, 'utf8')).join('---\n');
    const fromStdin = await findingsOf(['-'], { stdin: () => Promise.resolve(Buffer.from(stdin)) });
    expect(fromDir.length).toBeGreaterThan(0);
    expect(fromFiles).toEqual(fromDir);
    const key = (f: Omit<Finding, 'file'>) => `${f.code} ${f.resource.kind}/${f.resource.name} ${f.message}`;
    expect(strip(fromStdin).map(key).sort()).toEqual(strip(fromDir).map(key).sort());
  });
  it('exits 1 on an error finding, 0 with --fail-on… below it suppressed, and prints JSON', async () => {
    const r = await runCli(['analyze', '-o', 'json', dir]);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as { findings: Array<Record<string, unknown>> };
    expect(Object.keys(doc.findings[0] ?? {})).toEqual(['code', 'severity', 'resource', 'message', 'file', 'line']);
    const quiet = await runCli(['analyze', '-o', 'json', '--suppress', 'LA3001', '--suppress', 'LA4002=Server/web-http', '--suppress', 'LA4004', dir]);
    expect(quiet.code).toBe(0);
    expect((JSON.parse(quiet.stdout) as { findings: unknown[] }).findings).toHaveLength(1);
    const strict = await runCli(['analyze', '--fail-on', 'warning', '--suppress', 'LA3001', '--suppress', 'LA4002', '--suppress', 'LA4004', dir]);
    expect(strict.code).toBe(1);
  });
  it('refuses a bad flag value in one line', async () => {
    const r = await runCli(['analyze', '-o', 'xml', dir]);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/--output must be one of: table, json, sarif, junit/);
  });
});

describe('linkerd analyze --suppress', () => {
  const codes = new Set(RULES.map((r) => r.code));
  const finding = (namespace: string, name: string): Finding => ({
    code: 'LA2001',
    severity: 'error',
    resource: { kind: 'Deployment', namespace, name },
    message: 'm',
    file: 'f',
    line: 1,
  });
  it('names a resource as KIND/NAME in any namespace, or KIND/NAMESPACE/NAME', () => {
    const hit = (flag: string, f: Finding) => suppressed(f, [parseSuppression(flag, codes)]);
    expect(hit('LA2001=deployment/c/d', finding('c', 'd'))).toBe(true);
    expect(hit('LA2001=deployment/c/d', finding('x', 'd'))).toBe(false);
    expect(hit('LA2001=Deployment/d', finding('x', 'd'))).toBe(true);
    expect(hit('LA2001=deployment/*/d', finding('x', 'd'))).toBe(true);
    expect(hit('LA2001=deployment/c/*', finding('c', 'e'))).toBe(true);
    expect(hit('LA2001=server/c/d', finding('c', 'd'))).toBe(false);
  });
  it('refuses a malformed value in one line', async () => {
    for (const flag of ['LA2001=deployment', 'LA2001=deployment/', 'LA2001=a/b/c/d', 'LA2001=/c/d', 'LA2001=deployment//d', 'la2001'])
      expect(() => parseSuppression(flag, codes)).toThrow(/^--suppress ".*": expected CODE, CODE=KIND\/NAME or CODE=KIND\/NAMESPACE\/NAME/);
    const r = await runCli(['analyze', '--suppress', 'LA2001=a/b/c/d', path.join(CORPUS, 'rules', 'LA2001', 'pass.yaml')]);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('linkerd analyze: adding an unrelated valid object', () => {
  it('never adds a finding', async () => {
    const dir = path.join(CORPUS, 'emojivoto');
    const read = await readInputs([dir], 'default');
    const before = analyze(read, OPTIONS);
    const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/);
    const unrelated = fc.oneof(
      fc.record({ kind: fc.constant('ConfigMap'), name, ns: fc.constantFrom('emojivoto', 'other') }),
      fc.record({ kind: fc.constant('ServiceAccount'), name, ns: fc.constantFrom('other', 'emojivoto') }),
      fc.record({ kind: fc.constant('Deployment'), name, ns: fc.constant('other') }),
      fc.record({ kind: fc.constant('Namespace'), name: name.filter((n) => n !== 'emojivoto'), ns: fc.constant('') }),
    );
    await fc.assert(
      fc.asyncProperty(unrelated, async (u) => {
        const body =
          u.kind === 'Deployment'
            ? {
                apiVersion: 'apps/v1',
                kind: 'Deployment',
                metadata: { name: u.name, namespace: u.ns },
                spec: { template: { metadata: { labels: { app: u.name } }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
              }
            : { apiVersion: 'v1', kind: u.kind, metadata: { name: u.name, ...(u.ns ? { namespace: u.ns } : {}) } };
        const stdin = () => Promise.resolve(Buffer.from(JSON.stringify(body)));
        const extra = await readInputs(['-'], 'default', { stdin });
        const after = analyze({ objects: [...read.objects, ...extra.objects], repeatedKeys: read.repeatedKeys }, OPTIONS);
        expect(after).toEqual(before);
      }),
      { numRuns: 60 },
    );
  });
});

describe('linkerd analyze -o sarif', () => {
  it('validates against the full SARIF 2.1.0 schema (the one @microsoft/jest-sarif ships)', async () => {
    const schema = JSON.parse(readFileSync(path.join(REPO_ROOT, 'node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    // The schema is draft-04 (`id`, not `$id`): Ajv's own draft-04 build reads it as written; one
    // of its patterns is not valid in Unicode mode.
    const ajv = new Ajv04({ strict: false, allErrors: true, validateFormats: false, unicodeRegExp: false });
    const validate = ajv.compile(schema);
    const findings = await findingsOf([path.join(CORPUS, 'emojivoto')]);
    const log = JSON.parse(findingsSarif(findings, RULES, 'test')) as { runs: Array<{ results: unknown[]; tool: { driver: { rules: unknown[] } } }> };
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.runs[0]?.results).toHaveLength(findings.length);
    expect(log.runs[0]?.tool.driver.rules).toHaveLength(RULES.length);
    // The validator is not a rubber stamp: a result without a message fails it.
    const broken = structuredClone(log) as { runs: Array<{ results: Array<Record<string, unknown>> }> };
    delete broken.runs[0]?.results[0]?.message;
    expect(validate(broken)).toBe(false);
  });
});

describe('linkerd analyze -o junit', () => {
  it('is read by a JUnit parser: one case per finding, failures at or above --fail-on', async () => {
    const findings = await findingsOf([path.join(CORPUS, 'emojivoto')]);
    const parsed = (await parseJunit(findingsJunit(findings, 'error'))) as {
      tests?: number;
      failures?: number;
      testsuite?: Array<{ testcase?: Array<{ name?: string; failure?: unknown[] }> }>;
    };
    const cases = parsed.testsuite?.[0]?.testcase ?? [];
    expect(cases).toHaveLength(findings.length);
    expect(cases.filter((c) => c.failure).length).toBe(findings.filter((f) => f.severity === 'error').length);
    expect(cases[0]?.name).toMatch(/^LA\d{4} /);
    const clean = (await parseJunit(findingsJunit([], 'error'))) as { testsuite?: Array<{ testcase?: unknown[] }> };
    expect(clean.testsuite?.[0]?.testcase).toHaveLength(1);
  });
});
