import { UserError } from '../../core/errors.js';
import { SEVERITY_RANK, type Finding, type Severity } from './finding.js';

/** `--suppress CODE` or `--suppress CODE=KIND/NAME` (kind case-insensitive; NAME may be `*`). */
export interface Suppression {
  readonly code: string;
  readonly kind?: string;
  readonly name?: string;
}

export function parseSuppression(flag: string, knownCodes: ReadonlySet<string>): Suppression {
  const m = /^([A-Z]+\d+)(?:=([^/]+)\/(.+))?$/.exec(flag);
  if (!m) throw new UserError(`--suppress "${flag}": expected CODE or CODE=KIND/NAME (e.g. LA3003=Server/web-http)`);
  const code = m[1] ?? '';
  if (!knownCodes.has(code)) throw new UserError(`--suppress "${flag}": unknown finding code ${code}`);
  return m[2] === undefined ? { code } : { code, kind: m[2].toLowerCase(), name: m[3] };
}

export function suppressed(f: Finding, rules: readonly Suppression[]): boolean {
  return rules.some(
    (s) => s.code === f.code && (s.kind === undefined || (s.kind === f.resource.kind.toLowerCase() && (s.name === '*' || s.name === f.resource.name))),
  );
}

/** Exit code 0 unless a finding is at or above the `--fail-on` severity. */
export function exitCodeFor(findings: readonly Finding[], failOn: Severity): number {
  return findings.some((f) => SEVERITY_RANK[f.severity] <= SEVERITY_RANK[failOn]) ? 1 : 0;
}
