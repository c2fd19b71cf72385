import type { Rule } from './finding.js';

/** docs/analyze-codes.md, generated from the rule data (a test keeps the committed file equal to it). */
export function codesMarkdown(rules: readonly Rule[]): string {
  const out = [
    '# `linkerd analyze` finding codes',
    '',
    '<!-- Generated from src/families/analyze/rules/*.ts; edit the rules, then run',
    '     UPDATE_GOLDEN=1 npx vitest run --config test/vitest.config.ts test/families/analyze/docs.test.ts -->',
    '',
    'Codes are stable: a code keeps its meaning in every release. Severity: **error** = traffic certainly',
    'breaks or policy is bypassed; **warning** = probably wrong; **info** = worth knowing.',
    '',
    '| code | severity | title |',
    '|---|---|---|',
    ...rules.map((r) => `| [${r.code}](#${r.code.toLowerCase()}) | ${r.severity} | ${r.title} |`),
    '',
  ];
  for (const r of rules) {
    out.push(`## ${r.code}`, '', `**${r.title}** (${r.severity})`, '', `- **What:** ${r.what}`, `- **Why:** ${r.why}`, `- **Fix:** ${r.fix}`, '');
  }
  return out.join('\n');
}
