import { UserError } from '../errors.js';

/** One clause of a label selector, as `k8s.io/apimachinery/pkg/labels` understands it. */
export type LabelRequirement =
  | { key: string; op: 'exists' | 'notexists' }
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'gt' | 'lt'; value: number };

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
export function parseLabelSelector(selector: string): LabelRequirement[] {
  const out: LabelRequirement[] = [];
  for (const part of splitTopLevel(selector)) {
    let m: RegExpMatchArray | null;
    if ((m = part.match(/^!\s*(\S+)$/))) {
      out.push({ key: checkKey(selector, m[1]), op: 'notexists' });
    } else if ((m = part.match(/^(\S+?)\s+(in|notin)\s*\((.*)\)$/))) {
      const values = m[3].split(',').map((v) => checkValue(selector, v.trim()));
      out.push({ key: checkKey(selector, m[1]), op: m[2] as 'in' | 'notin', values });
    } else if ((m = part.match(/^([^=!<>\s]+)\s*(==|=|!=)\s*(\S*)$/))) {
      const value = checkValue(selector, m[3]);
      out.push({ key: checkKey(selector, m[1]), op: m[2] === '!=' ? 'notin' : 'in', values: [value] });
    } else if ((m = part.match(/^([^=!<>\s]+)\s*(<|>)\s*(-?\d+)$/))) {
      out.push({ key: checkKey(selector, m[1]), op: m[2] === '>' ? 'gt' : 'lt', value: Number(m[3]) });
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
    const v = l[r.key];
    switch (r.op) {
      case 'exists':
        if (!has) return false;
        break;
      case 'notexists':
        if (has) return false;
        break;
      case 'in':
        if (!has || !r.values.includes(v)) return false;
        break;
      case 'notin':
        if (has && r.values.includes(v)) return false;
        break;
      case 'gt':
      case 'lt': {
        if (!has || !/^-?\d+$/.test(v)) return false;
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
  for (const part of selector.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    const m = part.match(/^([^=!\s]+)\s*(==|=|!=)\s*(.*)$/);
    if (!m) throw new UserError(`invalid field selector "${selector}": cannot parse "${part}"`);
    out.push({ field: m[1], op: m[2] === '!=' ? 'neq' : 'eq', value: m[3] });
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
  if (cur === undefined || cur === null) return '';
  return typeof cur === 'object' ? JSON.stringify(cur) : String(cur);
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
