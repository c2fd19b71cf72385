import { xmlEscape as escape } from '../../../cli/output/check-junit.js';
import { SEVERITY_RANK, type Finding, type Severity } from '../finding.js';

/*
 * `-o junit`: one <testcase> per finding, named `<code> <kind> <namespace>/<name>`, with the message
 * as its <failure> when it is at or above --fail-on (else in <system-out>). One case per finding,
 * not per resource, because CI test views (GitLab, Jenkins, GitHub reporters) show one failure
 * message per case: a resource with three findings would show only the first. A clean run has one
 * passing case, so the suite is never empty.
 */

export function findingsJunit(findings: readonly Finding[], failOn: Severity): string {
  const failing = (f: Finding) => SEVERITY_RANK[f.severity] <= SEVERITY_RANK[failOn];
  const cases = findings.map((f) => {
    const name = escape(`${f.code} ${f.resource.kind} ${f.resource.namespace ? `${f.resource.namespace}/` : ''}${f.resource.name}`);
    const where = f.line > 0 ? `${f.file}:${f.line}` : f.file;
    const body = failing(f)
      ? `<failure message="${escape(f.message)}" type="${f.severity}">${escape(`${where}: ${f.message}`)}</failure>`
      : `<system-out>${escape(`${f.severity}: ${where}: ${f.message}`)}</system-out>`;
    return `    <testcase classname="linkerd-analyze.${escape(f.resource.kind)}" name="${name}" file="${escape(f.file)}" time="0">\n      ${body}\n    </testcase>`;
  });
  if (cases.length === 0) cases.push('    <testcase classname="linkerd-analyze" name="no findings" time="0"/>');
  const failures = findings.filter(failing).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="linkerd analyze" tests="${cases.length}" failures="${failures}" errors="0">`,
    `  <testsuite name="linkerd analyze" tests="${cases.length}" failures="${failures}" errors="0" skipped="0">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
