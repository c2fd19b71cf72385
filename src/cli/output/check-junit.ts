import type { CheckReport, CheckResult } from '../../core/check/index.js';

/** Text made safe inside XML attributes and elements (shared by every JUnit printer). */
export const xmlEscape = (s: string): string =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    // XML 1.0 forbids most control characters even escaped; tabs and newlines stay.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

const seconds = (ms: number) => (ms / 1000).toFixed(3);

interface Case {
  category: string;
  name: string;
  ms: number;
  body: string;
  failed: boolean;
  skipped: boolean;
}

/**
 * `-o junit`: one <testsuite> per category, one <testcase> per check (named `<id> <description>`).
 * Errors are failures; warnings are failures only with `--fail-on warning` (otherwise
 * reported in <system-out>); checks left out by --skip/--only or never reached after a fatal
 * failure are <skipped>. Written in full even when the cluster cannot be reached.
 */
export function checkJunit(report: CheckReport, o: { failOnWarning: boolean }): string {
  const cases: Case[] = [];
  const detail = (r: CheckResult) => `${r.error ?? ''}${r.hint ? `\nsee ${r.hint} for hints` : ''}`;
  for (const r of report.results) {
    const name = `${r.id} ${r.description.split('\n')[0]}`;
    const base = { category: r.category, name, ms: r.durationMs };
    if (r.status === 'skipped') {
      cases.push({ ...base, body: '<skipped message="excluded by --skip/--only"/>', failed: false, skipped: true });
    } else if (r.status === 'error' || (r.status === 'warning' && o.failOnWarning)) {
      const message = (r.error ?? '').split('\n')[0] ?? '';
      cases.push({
        ...base,
        body: `<failure type="${r.status === 'warning' ? 'warning' : r.severity}" message="${xmlEscape(message)}">${xmlEscape(detail(r))}</failure>`,
        failed: true,
        skipped: false,
      });
    } else if (r.status === 'warning') {
      cases.push({ ...base, body: `<system-out>${xmlEscape(`warning: ${detail(r)}`)}</system-out>`, failed: false, skipped: false });
    } else {
      cases.push({ ...base, body: '', failed: false, skipped: false });
    }
  }
  for (const c of report.notRun) {
    cases.push({
      category: c.category,
      name: `${c.id} ${c.description}`,
      ms: 0,
      body: '<skipped message="not run: an earlier fatal check failed"/>',
      failed: false,
      skipped: true,
    });
  }

  const suites = new Map<string, Case[]>();
  for (const c of cases) suites.set(c.category, [...(suites.get(c.category) ?? []), c]);
  const total = (list: Case[]) => ({
    tests: list.length,
    failures: list.filter((c) => c.failed).length,
    skipped: list.filter((c) => c.skipped).length,
    ms: list.reduce((a, c) => a + c.ms, 0),
  });
  const all = total(cases);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="linkerd check" tests="${all.tests}" failures="${all.failures}" errors="0" skipped="${all.skipped}" time="${seconds(all.ms)}">`,
  ];
  for (const [category, list] of suites) {
    const t = total(list);
    lines.push(
      `  <testsuite name="${xmlEscape(category)}" tests="${t.tests}" failures="${t.failures}" errors="0" skipped="${t.skipped}" time="${seconds(t.ms)}">`,
    );
    for (const c of list) {
      const open = `    <testcase classname="linkerd-check.${xmlEscape(c.category)}" name="${xmlEscape(c.name)}" time="${seconds(c.ms)}"`;
      lines.push(c.body === '' ? `${open}/>` : `${open}>${c.body}</testcase>`);
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}
