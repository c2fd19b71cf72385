import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthyCluster } from './support/clusters.js';
import { render } from './support/render.js';
import { checkAgainst } from './support/run.js';

const HINTS = 'https://linkerd.io/2/checks/#';
let dir: string;

/** A fake extension: answers `_extension-metadata` and `check` like linkerd-viz does. */
function extension(name: string, o: { always?: boolean; check: string }) {
  const file = path.join(dir, name);
  fs.writeFileSync(
    file,
    `#!/bin/sh
if [ "$1" = "_extension-metadata" ]; then
  echo '{"name": "${name}", "checks": "${o.always ? 'always' : 'never'}"}'
  exit 0
fi
echo "$@" > "${file}.args"
${o.check}
`,
    { mode: 0o755 },
  );
}

const vizOutput = JSON.stringify({
  success: false,
  categories: [
    {
      categoryName: 'linkerd-viz',
      checks: [
        { description: 'linkerd-viz Namespace exists', result: 'success' },
        {
          description: 'prometheus is installed and configured correctly',
          hint: `${HINTS}l5d-viz-prometheus`,
          error: 'could not find prometheus',
          result: 'error',
        },
      ],
    },
  ],
});

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkerd-ext-'));
  extension('linkerd-viz', { check: `echo '${vizOutput}'` });
  extension('linkerd-broken', { check: `echo 'not json'` });
  extension('linkerd-noisy', { check: `echo 'permission denied talking to the cluster' >&2; exit 1` });
  extension('linkerd-always', {
    always: true,
    check: `echo '{"success":true,"categories":[{"categoryName":"linkerd-always","checks":[{"description":"always here","result":"success"}]}]}'`,
  });
  fs.writeFileSync(path.join(dir, 'linkerd-not-executable'), 'x', { mode: 0o644 });
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const labelled = (name: string, ext: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'linkerd.io/extension': ext } } });

describe('extension checks', () => {
  it('run the extensions of labelled namespaces and on PATH, merged into one report', async () => {
    const cluster = await healthyCluster();
    // Extensions run in the order of their namespaces.
    const objects = [
      ...cluster.objects,
      labelled('a-viz', 'viz'),
      labelled('b-jaeger', 'jaeger'),
      labelled('c-broken', 'broken'),
      labelled('d-noisy', 'noisy'),
    ];
    const forwardFlags = ['--linkerd-namespace=linkerd', '--verbose=false', '--proxy=false', '--wait=5m0s'];
    const { report } = await checkAgainst(objects, { extensions: { path: dir, forwardFlags, timeoutMs: 10_000 } });
    const ext = report.results.filter((r) => r.extension);
    expect(ext.map((r) => `${r.category} | ${r.description} | ${r.status}`)).toEqual([
      'linkerd-viz | linkerd-viz Namespace exists | success',
      'linkerd-viz | prometheus is installed and configured correctly | error',
      'linkerd-jaeger | Linkerd extension command linkerd-jaeger exists | warning',
      `linkerd-broken | Running: ${dir}/linkerd-broken check ${forwardFlags.join(' ')} --output=json | error`,
      `linkerd-noisy | Running: ${dir}/linkerd-noisy check ${forwardFlags.join(' ')} --output=json | error`,
      'linkerd-always | always here | success',
    ]);
    expect(fs.readFileSync(path.join(dir, 'linkerd-viz.args'), 'utf8').trim()).toBe(`check ${forwardFlags.join(' ')} --output=json`);
    expect(ext[2]).toMatchObject({ error: 'exec: "linkerd-jaeger": executable file not found in $PATH', hint: `${HINTS}extensions` });
    expect(ext[3].error).toBe(
      `invalid extension check output from "${dir}/linkerd-broken check ${forwardFlags.join(' ')} --output=json" (JSON object expected):\nnot json\n\n[Unexpected token 'o', "not json\n" is not valid JSON]`,
    );
    expect(ext[4].error).toBe('permission denied talking to the cluster');
    expect(report.success).toBe(false);

    const out = render(report);
    // Always one JSON document, extension categories included.
    const doc = JSON.parse(out.json);
    expect(doc.categories.map((c: { categoryName: string }) => c.categoryName).slice(-5)).toEqual([
      'linkerd-viz',
      'linkerd-jaeger',
      'linkerd-broken',
      'linkerd-noisy',
      'linkerd-always',
    ]);
    expect(out.table).toContain(
      `√ namespace configuration for extensions\n\nLinkerd extensions checks\n=========================\n\nlinkerd-viz\n-----------\n√ linkerd-viz Namespace exists\n× prometheus is installed and configured correctly\n    could not find prometheus\n    see ${HINTS}l5d-viz-prometheus for hints\n\nlinkerd-jaeger\n--------------\n‼ Linkerd extension command linkerd-jaeger exists\n`,
    );
    expect(out.table.endsWith('linkerd-always\n--------------\n√ always here\n\nStatus check results are ×\n')).toBe(true);
  });

  it('can be skipped by category like core checks', async () => {
    const cluster = await healthyCluster();
    const { report } = await checkAgainst([...cluster.objects, labelled('linkerd-viz', 'viz')], {
      extensions: { path: dir, forwardFlags: [], timeoutMs: 10_000 },
      selection: { skip: ['linkerd-viz'], only: [] },
    });
    expect(report.results.filter((r) => r.category === 'linkerd-viz').every((r) => r.status === 'skipped')).toBe(true);
    expect(report.success).toBe(true);
    expect(render(report).table).not.toContain('prometheus');
  });

  it('do not run for --pre or --crds', async () => {
    const cluster = await healthyCluster();
    const { report } = await checkAgainst([...cluster.objects, labelled('linkerd-viz', 'viz')], {
      mode: 'crds',
      extensions: { path: dir, forwardFlags: [], timeoutMs: 10_000 },
    });
    expect(report.results.some((r) => r.extension)).toBe(false);
  });
});
