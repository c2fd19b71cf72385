import type { LabelSelector, LabelSelectorRequirement } from 'kubernetes-types/meta/v1.js';
import { UserError } from '../../../core/errors.js';
import { parseLabelSelector } from '../../../core/kube/selectors.js';

/** The clauses of a selector: commas outside `( … )` separate them. */
function clauses(selector: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  out.push(selector.slice(start));
  return out.map((c) => c.trim()).filter((c) => c !== '');
}

/**
 * A label-selector flag as a LabelSelector (apimachinery's ParseToLabelSelector): `k=v` and `k==v`
 * become matchLabels, every other clause a matchExpressions entry, in key order as the Go parser
 * sorts them. The empty string gives `{}`, which the service mirror reads as "match nothing".
 */
export function labelSelectorFrom(selector: string): LabelSelector {
  const parsed = parseLabelSelector(selector);
  const equality = clauses(selector).map((c) => /^[^=!<>\s]+\s*==?\s*\S*$/.test(c));
  const matchLabels: Record<string, string> = {};
  const matchExpressions: LabelSelectorRequirement[] = [];
  const ordered = parsed.map((r, i) => ({ r, eq: equality[i] ?? false })).sort((a, b) => (a.r.key < b.r.key ? -1 : a.r.key > b.r.key ? 1 : 0));
  for (const { r, eq } of ordered) {
    switch (r.op) {
      case 'in':
        if (eq) matchLabels[r.key] = r.values[0] ?? '';
        else matchExpressions.push({ key: r.key, operator: 'In', values: [...r.values] });
        break;
      case 'notin':
        matchExpressions.push({ key: r.key, operator: 'NotIn', values: [...r.values] });
        break;
      case 'exists':
        matchExpressions.push({ key: r.key, operator: 'Exists' });
        break;
      case 'notexists':
        matchExpressions.push({ key: r.key, operator: 'DoesNotExist' });
        break;
      default:
        throw new UserError(`"${r.op}" is not a valid label selector operator`);
    }
  }
  const out: LabelSelector = {};
  if (Object.keys(matchLabels).length) out.matchLabels = matchLabels;
  if (matchExpressions.length) out.matchExpressions = matchExpressions;
  return out;
}
