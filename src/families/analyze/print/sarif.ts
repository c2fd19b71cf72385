import type { Finding, Rule, Severity } from '../finding.js';

/*
 * `-o sarif`: SARIF 2.1.0 for code scanning. Every rule is described in the driver (with its help
 * text), each finding is a result pointing at its file and line; an object from the cluster or
 * standard input has no file to point at, so it is located by its resource only.
 */

const LEVEL: Readonly<Record<Severity, string>> = { error: 'error', warning: 'warning', info: 'note' };

const NO_FILE = new Set(['<stdin>', '<cluster>']);

function physical(f: Finding): object[] {
  if (NO_FILE.has(f.file)) return [];
  const uri = /^https?:\/\//.test(f.file) ? f.file : encodeURI(f.file.split('\\').join('/'));
  return [{ physicalLocation: { artifactLocation: { uri }, ...(f.line > 0 ? { region: { startLine: f.line } } : {}) } }];
}

export function findingsSarif(findings: readonly Finding[], rules: readonly Rule[], version: string): string {
  const ruleIndex = new Map(rules.map((r, i) => [r.code, i]));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'linkerd analyze',
            version,
            informationUri: 'https://linkerd.io/',
            rules: rules.map((r) => ({
              id: r.code,
              name: r.title.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase()),
              shortDescription: { text: r.title },
              fullDescription: { text: r.what },
              help: { text: `${r.why}\nFix: ${r.fix}`, markdown: `${r.why}\n\n**Fix:** ${r.fix}` },
              defaultConfiguration: { level: LEVEL[r.severity] },
            })),
          },
        },
        results: findings.map((f) => ({
          ruleId: f.code,
          ruleIndex: ruleIndex.get(f.code) ?? -1,
          level: LEVEL[f.severity],
          message: { text: f.message },
          locations: [
            {
              ...(physical(f)[0] ?? {}),
              logicalLocations: [
                {
                  name: f.resource.name,
                  fullyQualifiedName: `${f.resource.kind}/${f.resource.namespace ? `${f.resource.namespace}/` : ''}${f.resource.name}`,
                  kind: 'resource',
                },
              ],
            },
          ],
        })),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
