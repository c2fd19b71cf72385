import type { CheckReport } from '../../core/check/index.js';

interface JsonCheck {
  description: string;
  hint?: string;
  error?: string;
  result: 'success' | 'warning' | 'error';
  // Additive fields (not in the real schema): stable id, declared severity, time taken.
  id: string;
  severity: string;
  durationMs: number;
}

/**
 * `-o json`: always one document, even with extensions (the real CLI printed one per
 * extension, linkerd/linkerd2#7960). The real schema — `success`, `categories[].categoryName`,
 * `checks[].description|hint|error|result` in that key order — plus `id`, `severity` and
 * `durationMs` on each check.
 */
export function checkJson(report: CheckReport): string {
  const categories: Array<{ categoryName: string; checks: JsonCheck[] }> = [];
  for (const r of report.results) {
    if (r.status === 'skipped') continue;
    let cat = categories[categories.length - 1];
    if (!cat || cat.categoryName !== r.category) {
      cat = { categoryName: r.category, checks: [] };
      categories.push(cat);
    }
    const check: JsonCheck = { description: r.description } as JsonCheck;
    if (r.status !== 'success') {
      if (r.hint) check.hint = r.hint;
      if (r.error) check.error = r.error;
    }
    check.result = r.status;
    check.id = r.id;
    check.severity = r.severity;
    check.durationMs = r.durationMs;
    cat.checks.push(check);
  }
  return `${JSON.stringify({ success: report.success, categories }, null, 2)}\n`;
}
