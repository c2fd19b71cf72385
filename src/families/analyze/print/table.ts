import { terminalText } from '../../../cli/output/sanitize.js';
import type { Finding } from '../finding.js';

const location = (f: Finding) => (f.line > 0 ? `${f.file}:${f.line}` : f.file);
const resource = (f: Finding) => `${f.resource.kind} ${f.resource.namespace ? `${f.resource.namespace}/` : ''}${f.resource.name}`;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `-o table`: one aligned row per finding (the message last, unpadded), then a count by severity. */
export function findingsTable(findings: readonly Finding[]): string {
  if (findings.length === 0) return 'No findings.\n';
  const rows = [['SEVERITY', 'CODE', 'RESOURCE', 'LOCATION', 'MESSAGE'], ...findings.map((f) => [f.severity, f.code, resource(f), location(f), f.message])].map(
    (r) => r.map((c) => terminalText(c).replace(/\s+/g, ' ')),
  );
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const lines = rows.map((r) => r.map((c, i) => (i < 4 ? c.padEnd(widths[i] ?? 0) : c)).join('  '));
  const count = (s: string) => findings.filter((f) => f.severity === s).length;
  const summary = `${plural(findings.length, 'finding')}: ${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}, ${count('info')} info`;
  return `${lines.join('\n')}\n\n${summary}\n`;
}
