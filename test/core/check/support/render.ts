import type { CheckReport } from '../../../../src/core/check/index.js';
import { checkJson } from '../../../../src/cli/output/check-json.js';
import { checkJunit } from '../../../../src/cli/output/check-junit.js';
import { tablePrinter } from '../../../../src/cli/output/check-table.js';

export interface Rendered {
  table: string;
  short: string;
  json: string;
  junit: string;
  /** What the CLI exits with for this report. */
  exitCode: number;
}

function stream(report: CheckReport, short: boolean): string {
  let out = '';
  const p = tablePrinter({ short, write: (s) => (out += s) });
  for (const r of report.results) p.result(r);
  p.finish(report);
  return out;
}

/** The report in every output format, as the CLI prints it (no TTY: no colour, no spinner). */
export function render(report: CheckReport, o: { failOnWarning?: boolean } = {}): Rendered {
  return {
    table: stream(report, false),
    short: stream(report, true),
    json: checkJson(report),
    junit: checkJunit(report, { failOnWarning: o.failOnWarning ?? false }),
    exitCode: report.success ? 0 : 1,
  };
}

/** The JSON check object with this description. */
export function jsonCheck(json: string, description: string): Record<string, unknown> {
  const doc = JSON.parse(json) as { categories: Array<{ checks: Array<Record<string, unknown>> }> };
  const found = doc.categories.flatMap((c) => c.checks).find((c) => c.description === description);
  if (!found) throw new Error(`no check "${description}" in the JSON output`);
  return found;
}
