import { LINKERD_VERSION } from '../../../core/version.js';
import type { Finding, Severity } from '../finding.js';
import { RULES } from '../rules/index.js';

export type OutputFormat = 'table' | 'json' | 'sarif' | 'junit';

/** The findings in the chosen format; the data is computed once, the format only picks a printer. */
export async function printFindings(findings: readonly Finding[], output: OutputFormat, failOn: Severity): Promise<string> {
  switch (output) {
    case 'json':
      return (await import('./json.js')).findingsJson(findings);
    case 'sarif':
      return (await import('./sarif.js')).findingsSarif(findings, RULES, LINKERD_VERSION);
    case 'junit':
      return (await import('./junit.js')).findingsJunit(findings, failOn);
    default:
      return (await import('./table.js')).findingsTable(findings);
  }
}
