import { list, record, str, stringMap } from './objects.js';

/*
 * Label selectors as the policy controller evaluates them (policy-controller k8s/api labels.rs):
 * `matchLabels` pairs and `matchExpressions` all hold; an empty selector selects everything.
 * `In`/`NotIn` need `values`, `Exists`/`DoesNotExist` need none (an empty list counts as present);
 * any other combination is an illegal expression, which selects nothing.
 */

interface Expression {
  readonly key: string;
  readonly operator: string;
  readonly values: readonly string[] | undefined;
}

export interface Selector {
  readonly matchLabels: Readonly<Record<string, string>>;
  readonly expressions: readonly Expression[];
}

export function parseSelector(v: unknown): Selector {
  const sel = record(v);
  const expressions = list(sel.matchExpressions).map((e): Expression => {
    const r = record(e);
    return { key: str(r.key) ?? '', operator: str(r.operator) ?? '', values: Array.isArray(r.values) ? r.values.map(String) : undefined };
  });
  return { matchLabels: stringMap(sel.matchLabels), expressions };
}

function expressionHolds(e: Expression, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, e.key);
  switch (e.operator) {
    case 'In':
      return e.values !== undefined && has && e.values.includes(labels[e.key] ?? '');
    case 'NotIn':
      return e.values !== undefined && !(has && e.values.includes(labels[e.key] ?? ''));
    case 'Exists':
      return e.values === undefined && has;
    case 'DoesNotExist':
      return e.values === undefined && !has;
    default:
      return false;
  }
}

export function selects(sel: Selector, labels: Readonly<Record<string, string>>): boolean {
  for (const [k, v] of Object.entries(sel.matchLabels)) if (labels[k] !== v) return false;
  return sel.expressions.every((e) => expressionHolds(e, labels));
}

/** `app=web` — a selector's label pairs, for the posting lists of a label index. */
export const labelKey = (k: string, v: string) => `${k}=${v}`;

/**
 * What matches a selector among `all`, looked up by its rarest matchLabels pair in `byLabel` (a
 * label index), so a selector costs the size of its smallest posting list, not of the namespace.
 */
export function selectFrom<T>(sel: Selector, all: readonly T[], byLabel: ReadonlyMap<string, readonly T[]>, labelsOf: (t: T) => Record<string, string>): T[] {
  let candidates: readonly T[] = all;
  for (const [k, v] of Object.entries(sel.matchLabels)) {
    const posting = byLabel.get(labelKey(k, v)) ?? [];
    if (posting.length < candidates.length) candidates = posting;
    if (candidates.length === 0) return [];
  }
  return candidates.filter((t) => selects(sel, labelsOf(t)));
}
