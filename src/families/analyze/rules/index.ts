import { compareFindings, type Finding, type Rule } from '../finding.js';
import { buildIndex } from '../indexes.js';
import { CLUSTER_DEFAULT_POLICY } from '../mesh.js';
import type { InputObject } from '../objects.js';
import type { ReadResult } from '../read.js';
import { annotationRules } from './annotations.js';
import { authenticationRules } from './authentication.js';
import { authorizationRules } from './authorization.js';
import type { AnalysisContext, Report, RuleGroup } from './group.js';
import { inputRules } from './input.js';
import { routeRules } from './routes.js';
import { serverRules } from './servers.js';
import { serviceRules } from './services.js';

/*
 * The resolution engine: every object is read once into indexes (indexes.ts), then each rule group
 * makes one pass over the objects it is about, looking the others up. Findings come out sorted.
 */

export const RULE_GROUPS: readonly RuleGroup[] = [inputRules, annotationRules, serverRules, authorizationRules, authenticationRules, routeRules, serviceRules];

/** Every rule, by code order. */
export const RULES: readonly Rule[] = RULE_GROUPS.flatMap((g) => g.rules).sort((a, b) => (a.code < b.code ? -1 : 1));

const RULE_BY_CODE = new Map(RULES.map((r) => [r.code, r]));

export function ruleFor(code: string): Rule | undefined {
  return RULE_BY_CODE.get(code);
}

export interface AnalyzeOptions {
  readonly trustDomain: string;
  readonly controlPlaneNamespace: string;
  /** The cluster default inbound policy; `all-unauthenticated` (the chart's) when not known. */
  readonly defaultPolicy?: string;
}

const resourceOf = (o: InputObject | undefined) => ({ kind: o?.kind ?? '', namespace: o?.namespace ?? '', name: o?.name ?? '' });

export function analyze(read: Pick<ReadResult, 'objects' | 'repeatedKeys'>, o: AnalyzeOptions): Finding[] {
  const index = buildIndex(read.objects, { ...o, defaultPolicy: o.defaultPolicy ?? CLUSTER_DEFAULT_POLICY });
  const findings: Finding[] = [];
  const severity = (code: string) => {
    const rule = RULE_BY_CODE.get(code);
    if (!rule) throw new Error(`finding code ${code} has no rule`);
    return rule.severity;
  };
  const report: Report = (code, object, message, path) => {
    findings.push({ code, severity: severity(code), resource: resourceOf(object), message, file: object.origin.file, line: object.origin.line(path) });
  };
  const ctx: AnalysisContext = {
    index,
    repeatedKeys: read.repeatedKeys,
    reportAt: (code, object, file, line, message) => findings.push({ code, severity: severity(code), resource: resourceOf(object), message, file, line }),
  };
  for (const g of RULE_GROUPS) g.check(ctx, report);
  return findings.sort(compareFindings);
}
