import { UserError } from '../../core/errors.js';
import { SEVERITY_RANK, type Finding, type Severity } from './finding.js';

/**
 * `--suppress CODE`, `CODE=KIND/NAME` (any namespace) or `CODE=KIND/NAMESPACE/NAME`; KIND is
 * case-insensitive, NAMESPACE and NAME may be `*`.
 */
export interface Suppression {
  readonly code: string;
  readonly kind?: string;
  readonly namespace?: string;
  readonly name?: string;
}

const FORMS = 'expected CODE, CODE=KIND/NAME or CODE=KIND/NAMESPACE/NAME (e.g. LA3003=Server/web-http, LA2001=Deployment/shop/web)';

export function parseSuppression(flag: string, knownCodes: ReadonlySet<string>): Suppression {
  const m = /^([A-Z]+\d+)(?:=(.*))?$/.exec(flag);
  if (!m) throw new UserError(`--suppress "${flag}": ${FORMS}`);
  const code = m[1] ?? '';
  if (!knownCodes.has(code)) throw new UserError(`--suppress "${flag}": unknown finding code ${code}`);
  if (m[2] === undefined) return { code };
  const parts = m[2].split('/');
  if ((parts.length !== 2 && parts.length !== 3) || parts.some((p) => p === '' || /\s/.test(p))) throw new UserError(`--suppress "${flag}": ${FORMS}`);
  const kind = (parts[0] ?? '').toLowerCase();
  return parts.length === 2 ? { code, kind, name: parts[1] } : { code, kind, namespace: parts[1], name: parts[2] };
}

const matches = (pattern: string | undefined, value: string) => pattern === undefined || pattern === '*' || pattern === value;

export function suppressed(f: Finding, rules: readonly Suppression[]): boolean {
  return rules.some(
    (s) =>
      s.code === f.code &&
      (s.kind === undefined || (s.kind === f.resource.kind.toLowerCase() && matches(s.namespace, f.resource.namespace) && matches(s.name, f.resource.name))),
  );
}

/** Exit code 0 unless a finding is at or above the `--fail-on` severity. */
export function exitCodeFor(findings: readonly Finding[], failOn: Severity): number {
  return findings.some((f) => SEVERITY_RANK[f.severity] <= SEVERITY_RANK[failOn]) ? 1 : 0;
}
