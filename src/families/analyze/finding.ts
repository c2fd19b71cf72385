/*
 * What `linkerd analyze` reports: findings, each about one resource, with a stable code defined
 * once as a rule (rules/*.ts). Severity says how sure the harm is: error = traffic certainly breaks
 * or policy is bypassed; warning = probably wrong; info = worth knowing.
 */

export const SEVERITIES = ['error', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** How a severity ranks against `--fail-on` (lower is more severe). */
export const SEVERITY_RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };

/** One finding code, as data: the docs and SARIF's rule metadata are generated from it. */
export interface Rule {
  /** Stable: never reused for another meaning. */
  readonly code: string;
  readonly severity: Severity;
  readonly title: string;
  /** What the rule finds. */
  readonly what: string;
  /** Why it matters: what the proxy or the policy controller does with it. */
  readonly why: string;
  /** How to fix it. */
  readonly fix: string;
}

export interface ResourceRef {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}

export interface Finding {
  readonly code: string;
  readonly severity: Severity;
  readonly resource: ResourceRef;
  readonly message: string;
  /** The input the resource came from (`<stdin>`, a path, a URL, or `<cluster>`). */
  readonly file: string;
  /** 1-based; 0 for an object read from the cluster. */
  readonly line: number;
}

/** Orders findings by file, line, then code, so every output is stable. */
export function compareFindings(a: Finding, b: Finding): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if (a.line !== b.line) return a.line - b.line;
  if (a.code !== b.code) return a.code < b.code ? -1 : 1;
  const ka = `${a.resource.kind}/${a.resource.namespace}/${a.resource.name}/${a.message}`;
  const kb = `${b.resource.kind}/${b.resource.namespace}/${b.resource.name}/${b.message}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}
