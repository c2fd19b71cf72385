import { UserError } from '../errors.js';

/** One clause of a label selector, as `k8s.io/apimachinery/pkg/labels` understands it. */
export type LabelRequirement =
  { key: string; op: 'exists' | 'notexists' } | { key: string; op: 'in' | 'notin'; values: string[] } | { key: string; op: 'gt' | 'lt'; value: number };

export interface FieldRequirement {
  field: string;
  op: 'eq' | 'neq';
  value: string;
}

export type Labels = Record<string, string> | undefined;

const invalid = (selector: string, why: string) => new UserError(`unable to parse requirement: invalid selector "${selector}": ${why}`);

/** Split on commas that are not inside `( … )`. */
function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

const KEY_RE = /^([a-zA-Z0-9]([-a-zA-Z0-9.]*[a-zA-Z0-9])?\/)?[a-zA-Z0-9]([-a-zA-Z0-9_.]*[a-zA-Z0-9])?$/;
const VALUE_RE = /^(([a-zA-Z0-9]([-a-zA-Z0-9_.]*[a-zA-Z0-9])?)?)$/;

function checkKey(selector: string, key: string): string {
  if (!KEY_RE.test(key)) throw invalid(selector, `invalid label key "${key}"`);
  return key;
}

function checkValue(selector: string, value: string): string {
  if (!VALUE_RE.test(value)) throw invalid(selector, `invalid label value "${value}"`);
  return value;
}

/** Parse `a=b,c!=d,e in (f,g),h notin (i),j,!k,l>3`. An empty string selects everything. */
type Captures = [string, string, string];

/** The first three capture groups of `re` in `s`, as Go's FindStringSubmatch gives them ('' when a group is absent). */
function captures(re: RegExp, s: string): Captures | undefined {
  const m = re.exec(s);
  return m ? [m[1] ?? '', m[2] ?? '', m[3] ?? ''] : undefined;
}

export function parseLabelSelector(selector: string): LabelRequirement[] {
  const out: LabelRequirement[] = [];
  for (const part of splitTopLevel(selector)) {
    let m: Captures | undefined;
    if ((m = captures(/^!\s*(\S+)$/, part))) {
      out.push({ key: checkKey(selector, m[0]), op: 'notexists' });
    } else if ((m = captures(/^(\S+?)\s+(in|notin)\s*\((.*)\)$/, part))) {
      const [key, op, list] = m;
      const values = list.split(',').map((v) => checkValue(selector, v.trim()));
      out.push({ key: checkKey(selector, key), op: op === 'notin' ? 'notin' : 'in', values });
    } else if ((m = captures(/^([^=!<>\s]+)\s*(==|=|!=)\s*(\S*)$/, part))) {
      const [key, op, text] = m;
      const value = checkValue(selector, text);
      out.push({ key: checkKey(selector, key), op: op === '!=' ? 'notin' : 'in', values: [value] });
    } else if ((m = captures(/^([^=!<>\s]+)\s*(<|>)\s*(-?\d+)$/, part))) {
      const [key, op, n] = m;
      out.push({ key: checkKey(selector, key), op: op === '>' ? 'gt' : 'lt', value: Number(n) });
    } else if (/^[^=!<>\s()]+$/.test(part)) {
      out.push({ key: checkKey(selector, part), op: 'exists' });
    } else {
      throw invalid(selector, `cannot parse "${part}"`);
    }
  }
  return out;
}

export function matchesLabelRequirements(reqs: readonly LabelRequirement[], labels: Labels): boolean {
  const l = labels ?? {};
  for (const r of reqs) {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    const v = has ? l[r.key] : undefined;
    switch (r.op) {
      case 'exists':
        if (!has) return false;
        break;
      case 'notexists':
        if (has) return false;
        break;
      case 'in':
        if (v === undefined || !r.values.includes(v)) return false;
        break;
      case 'notin':
        if (v !== undefined && r.values.includes(v)) return false;
        break;
      case 'gt':
      case 'lt': {
        if (v === undefined || !/^-?\d+$/.test(v)) return false;
        const n = Number(v);
        if (r.op === 'gt' ? !(n > r.value) : !(n < r.value)) return false;
        break;
      }
    }
  }
  return true;
}

/** Parse `metadata.name=x,status.phase!=Running`. */
export function parseFieldSelector(selector: string): FieldRequirement[] {
  const out: FieldRequirement[] = [];
  for (const part of selector
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const m = captures(/^([^=!\s]+)\s*(==|=|!=)\s*(.*)$/, part);
    if (!m) throw new UserError(`invalid field selector "${selector}": cannot parse "${part}"`);
    const [field, op, value] = m;
    out.push({ field, op: op === '!=' ? 'neq' : 'eq', value });
  }
  return out;
}

/** The string a field selector compares: the dotted path's value, `''` when absent. */
export function fieldValue(obj: unknown, path: string): string {
  let cur: unknown = obj;
  for (const seg of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[seg];
  }
  if (typeof cur === 'string') return cur;
  if (typeof cur === 'number' || typeof cur === 'boolean') return String(cur);
  return cur !== null && typeof cur === 'object' ? JSON.stringify(cur) : '';
}

export function matchesFieldRequirements(reqs: readonly FieldRequirement[], obj: unknown): boolean {
  return reqs.every((r) => (fieldValue(obj, r.field) === r.value) === (r.op === 'eq'));
}

export interface Selectors {
  labelSelector?: string;
  fieldSelector?: string;
}

/** A predicate for objects that match both selectors (either may be absent). */
export function objectMatcher(sel: Selectors): (obj: { metadata?: { labels?: Record<string, string> } }) => boolean {
  const labels = sel.labelSelector ? parseLabelSelector(sel.labelSelector) : [];
  const fields = sel.fieldSelector ? parseFieldSelector(sel.fieldSelector) : [];
  if (labels.length === 0 && fields.length === 0) return () => true;
  return (obj) => matchesLabelRequirements(labels, obj.metadata?.labels) && matchesFieldRequirements(fields, obj);
}
