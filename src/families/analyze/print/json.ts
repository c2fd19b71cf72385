import type { Finding } from '../finding.js';

/** `-o json`: one document, `{"findings":[…]}`, each finding's keys in the documented order. */
export function findingsJson(findings: readonly Finding[]): string {
  const out = findings.map((f) => ({
    code: f.code,
    severity: f.severity,
    resource: { kind: f.resource.kind, namespace: f.resource.namespace, name: f.resource.name },
    message: f.message,
    file: f.file,
    line: f.line,
  }));
  return `${JSON.stringify({ findings: out }, null, 2)}\n`;
}
