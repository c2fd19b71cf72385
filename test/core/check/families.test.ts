import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORE_CHECK_FAMILY, runCheck, type CheckResult } from '../../../src/core/check/index.js';
import { healthyCluster } from './support/clusters.js';
import { render } from './support/render.js';
import { checkAgainst, request } from './support/run.js';
import { labelled, testEntry } from './support/testFamily.js';
import { startApiServer } from '../../support/apiserver.js';

const HINTS = 'https://linkerd.io/2/checks/#';
const lines = (results: CheckResult[]) => results.filter((r) => r.extension).map((r) => `${r.id} ${r.category} ${r.status}`);

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkerd-family-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** An executable extension on PATH that reports one category of its own. */
function executable(name: string, category: string): void {
  const out = JSON.stringify({ success: true, categories: [{ categoryName: category, checks: [{ description: `${name} ran`, result: 'success' }] }] });
  fs.writeFileSync(path.join(dir, name), `#!/bin/sh\n[ "$1" = "_extension-metadata" ] && exit 1\necho '${out}'\n`, { mode: 0o755 });
}

describe('an installed extension whose family is registered', () => {
  it('runs in-process after the core checks, in the same table, JSON and JUnit, under the extensions banner', async () => {
    const cluster = await healthyCluster();
    const entry = testEntry({ health: 'warn' });
    const { report } = await checkAgainst([...cluster.objects, labelled('testext', 'testext')], {}, {}, [entry]);
    expect(entry.loads).toBe(1);
    expect(lines(report.results)).toEqual(['L5D9001 linkerd-testext success', 'L5D9002 linkerd-testext warning']);
    expect(report.results.filter((r) => r.extension).every((r) => r.extension === 'linkerd-testext')).toBe(true);
    // The core checks come first, untouched.
    expect(report.results.findIndex((r) => r.extension)).toBe(report.results.findIndex((r) => r.id === 'L5D2701') + 1);
    expect(report.success).toBe(true);
    expect(report.warning).toBe(true);

    const out = render(report);
    expect(out.table).toContain(
      `√ namespace configuration for extensions\n\nLinkerd extensions checks\n=========================\n\nlinkerd-testext\n---------------\n√ linkerd-testext Namespace exists\n‼ testext pods are healthy\n    pod "testext-0" is not ready\n    see ${HINTS}l5d-testext-L5D9002 for hints\n\nStatus check results are √\n`,
    );
    expect(out.short).toBe(
      `Linkerd extensions checks\n=========================\n\nlinkerd-testext\n---------------\n‼ testext pods are healthy\n    pod "testext-0" is not ready\n    see ${HINTS}l5d-testext-L5D9002 for hints\n\nStatus check results are √\n`,
    );
    const doc = JSON.parse(out.json) as { categories: Array<{ categoryName: string; checks: Array<Record<string, unknown>> }> };
    expect(doc.categories.at(-1)).toEqual({
      categoryName: 'linkerd-testext',
      checks: [
        { description: 'linkerd-testext Namespace exists', result: 'success', id: 'L5D9001', severity: 'fatal', durationMs: expect.any(Number) },
        {
          description: 'testext pods are healthy',
          hint: `${HINTS}l5d-testext-L5D9002`,
          error: 'pod "testext-0" is not ready',
          result: 'warning',
          id: 'L5D9002',
          severity: 'warning',
          durationMs: expect.any(Number),
        },
      ],
    });
    expect(out.junit).toMatch(/<testsuite name="linkerd-testext" tests="2" failures="0" errors="0" skipped="0"/);
    expect(out.junit).toContain('<testcase classname="linkerd-check.linkerd-testext" name="L5D9002 testext pods are healthy"');
    expect(render(report, { failOnWarning: true }).junit).toMatch(/<testsuite name="linkerd-testext" tests="2" failures="1"/);
  });

  it('counts for --fail-on: a warning fails the run with --fail-on warning, an error always', async () => {
    const cluster = await healthyCluster();
    const objects = [...cluster.objects, labelled('testext', 'testext')];
    const warned = await checkAgainst(objects, { failOn: 'warning' }, {}, [testEntry({ health: 'warn' })]);
    expect(warned.report.success).toBe(false);
    const failed = await checkAgainst(objects, {}, {}, [testEntry({ health: 'error' })]);
    expect(lines(failed.report.results)).toEqual(['L5D9001 linkerd-testext success', 'L5D9002 linkerd-testext error']);
    expect(failed.report.success).toBe(false);
    expect(render(failed.report).exitCode).toBe(1);
  });

  it('runs the categories declared for the mode: --proxy adds the data-plane one; the --pre one never runs by default', async () => {
    const cluster = await healthyCluster();
    const objects = [...cluster.objects, labelled('testext', 'testext')];
    const byDefault = await checkAgainst(objects, {}, {}, [testEntry()]);
    expect(byDefault.report.results.map((r) => r.category)).not.toContain('linkerd-testext-pre');
    expect(byDefault.report.results.map((r) => r.category)).not.toContain('linkerd-testext-data-plane');
    const proxy = await checkAgainst(objects, { mode: 'proxy' }, {}, [testEntry()]);
    expect(lines(proxy.report.results)).toEqual([
      'L5D9001 linkerd-testext success',
      'L5D9002 linkerd-testext success',
      'L5D9101 linkerd-testext-data-plane success',
    ]);
    // As in the real CLI, --pre and --crds run no extension checks at all.
    const pre = testEntry();
    const { report } = await checkAgainst(objects, { mode: 'crds' }, {}, [pre]);
    expect(lines(report.results)).toEqual([]);
    expect(pre.loads).toBe(0);
  });

  it('is not loaded when its extension is not installed', async () => {
    const cluster = await healthyCluster();
    const entry = testEntry();
    const { report } = await checkAgainst([...cluster.objects, labelled('other', 'other')], {}, {}, [entry]);
    expect(entry.loads).toBe(0);
    expect(lines(report.results)).toEqual([]);
  });

  it('sees its own typed options slot', async () => {
    const cluster = await healthyCluster();
    const { report } = await checkAgainst(
      [...cluster.objects, labelled('testext', 'testext')],
      { families: { testext: { greeting: 'hello from the slot' } } },
      {},
      [testEntry()],
    );
    expect(report.results.find((r) => r.id === 'L5D9001')?.description).toBe('linkerd-testext Namespace exists\nhello from the slot');
  });

  it('stops at its own fatal failure: its later checks are not run, the core result stands', async () => {
    const cluster = await healthyCluster();
    const { report } = await checkAgainst([...cluster.objects, labelled('testext', 'testext')], {}, {}, [testEntry({ fatal: true })]);
    expect(lines(report.results)).toEqual(['L5D9001 linkerd-testext error']);
    expect(report.notRun.map((c) => c.id)).toEqual(['L5D9002']);
    expect(report.results.filter((r) => !r.extension).every((r) => r.status === 'success')).toBe(true);
    expect(render(report).junit).toContain('name="L5D9002 testext pods are healthy" time="0.000"><skipped message="not run: an earlier fatal check failed"/>');
  });

  it('can be skipped by id or category like a core check', async () => {
    const cluster = await healthyCluster();
    const objects = [...cluster.objects, labelled('testext', 'testext')];
    const { report } = await checkAgainst(objects, { selection: { skip: ['L5D9002'], only: [] } }, {}, [testEntry({ health: 'error' })]);
    expect(lines(report.results)).toEqual(['L5D9001 linkerd-testext success', 'L5D9002 linkerd-testext skipped']);
    expect(report.success).toBe(true);
    expect(report.unmatchedSelectors).toEqual([]);
    // --only naming the extension's category runs it (and only it).
    const only = await checkAgainst(objects, { selection: { skip: [], only: ['linkerd-testext'] } }, {}, [testEntry()]);
    expect(only.report.results.filter((r) => r.status !== 'skipped').map((r) => r.id)).toEqual(['L5D9001', 'L5D9002']);
  });
});

describe('in-process and PATH extensions together', () => {
  it('runs the in-process family first and the rest from PATH; an unregistered one without executable is reported missing', async () => {
    executable('linkerd-pathext', 'linkerd-pathext');
    const cluster = await healthyCluster();
    const objects = [...cluster.objects, labelled('a-pathext', 'pathext'), labelled('b-jaeger', 'jaeger'), labelled('c-testext', 'testext')];
    const { report } = await checkAgainst(objects, { extensions: { path: dir, forwardFlags: [], timeoutMs: 10_000 } }, {}, [testEntry()]);
    expect(lines(report.results)).toEqual([
      'L5D9001 linkerd-testext success',
      'L5D9002 linkerd-testext success',
      'linkerd-pathext#1 linkerd-pathext success',
      'linkerd-jaeger#1 linkerd-jaeger warning',
    ]);
    expect(report.results.find((r) => r.category === 'linkerd-jaeger')?.description).toBe('Linkerd extension command linkerd-jaeger exists');
  });

  it('prefers a linkerd-<name> executable on PATH to the family, as the real CLI prefers it to its built-ins', async () => {
    executable('linkerd-testext', 'linkerd-testext-from-path');
    try {
      const cluster = await healthyCluster();
      const entry = testEntry();
      const { report } = await checkAgainst(
        [...cluster.objects, labelled('testext', 'testext')],
        { extensions: { path: dir, forwardFlags: [], timeoutMs: 10_000 } },
        {},
        [entry],
      );
      expect(entry.loads).toBe(0);
      expect(lines(report.results)).toEqual(['linkerd-testext-from-path#1 linkerd-testext-from-path success']);
    } finally {
      fs.rmSync(path.join(dir, 'linkerd-testext'));
    }
  });
});

describe('registration', () => {
  it('refuses a family whose category id, code or check id another family has, and two entries for one extension', async () => {
    const cluster = await healthyCluster();
    const api = await startApiServer({ objects: [...cluster.objects, labelled('testext', 'testext')] });
    try {
      const req = request(api.kubeconfigPath);
      const clash = (family: (f: Awaited<ReturnType<ReturnType<typeof testEntry>['load']>>) => void) => {
        const entry = testEntry();
        return {
          extension: 'testext',
          load: async () => {
            const f = await entry.load();
            family(f);
            return f;
          },
        };
      };
      await expect(
        runCheck(req, {}, [
          clash((f) => {
            (f.categories[0] as { id: string }).id = 'linkerd-identity';
            for (const c of f.categories[0]!.checks) (c as { category: string }).category = 'linkerd-identity';
          }),
        ]),
      ).rejects.toThrow('check family "testext" cannot be registered: category "linkerd-identity" is declared by "core" already');
      await expect(
        runCheck(req, {}, [
          clash((f) => {
            (f as { codes: object }).codes = { first: 40, last: 60 };
          }),
        ]),
      ).rejects.toThrow('its code range 40–60 overlaps "core" (10–49)');
      await expect(
        runCheck(req, {}, [
          clash((f) => {
            (f.categories[1] as { code: number }).code = 90;
          }),
        ]),
      ).rejects.toThrow('code 90 of "linkerd-testext-data-plane" is taken by "linkerd-testext"');
      await expect(
        runCheck(req, {}, [
          clash((f) => {
            (f.categories[0]!.checks[1] as { id: string }).id = 'L5D9001';
          }),
        ]),
      ).rejects.toThrow('check id L5D9001 is taken');
      await expect(runCheck(req, {}, [testEntry(), testEntry()])).rejects.toThrow('two check families are registered for the extension "testext"');
    } finally {
      await api.stop();
    }
  });

  it('keeps the core family in codes 10–49', () => {
    expect(CORE_CHECK_FAMILY.codes).toEqual({ first: 10, last: 49 });
  });
});
