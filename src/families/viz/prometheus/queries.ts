import { strconvQuote } from '../../../core/parse/strconv.js';

/*
 * The PromQL of `viz stat-inbound` and `stat-outbound` (linkerd's viz/pkg/prometheus label
 * helpers): the target's labels select the series, and results are grouped by the namespace and
 * the target's kind label, so each row can be named.
 */

/** A target as the real CLI's BuildResource makes it: the namespace is empty for `namespace`. */
export interface StatResource {
  type: string;
  name: string;
  namespace: string;
}

/** The proxy's label for a kind: `k8s_job` for jobs, the kind itself otherwise. */
export function resourceLabel(r: Pick<StatResource, 'type'>): string {
  return r.type === 'job' ? 'k8s_job' : r.type;
}

/** The label matchers that select `r`'s series. */
export function queryLabels(r: StatResource): Record<string, string> {
  const set: Record<string, string> = {};
  if (r.name !== '') {
    if (r.type === 'server') Object.assign(set, { srv_kind: 'server', srv_name: r.name });
    else if (r.type === 'serverauthorization') Object.assign(set, { authz_kind: 'serverauthorization', authz_name: r.name });
    else if (r.type === 'authorizationpolicy') Object.assign(set, { authz_kind: 'authorizationpolicy', authz_name: r.name });
    else if (r.type === 'httproute') set.route_name = r.name;
    else if (r.type !== 'service') set[resourceLabel(r)] = r.name;
  }
  if (r.type !== 'namespace' && r.namespace !== '') set.namespace = r.namespace;
  return set;
}

/** The labels rows are grouped by: the namespace, and the target's kind unless it is a namespace. */
export function groupByLabels(r: StatResource): string[] {
  return r.type === 'namespace' ? ['namespace'] : ['namespace', resourceLabel(r)];
}

/** Go's model.LabelSet String(): `{a="x", b="y"}`, names sorted, values Go-quoted. */
export function labelSetText(set: Record<string, string>): string {
  const names = Object.keys(set).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${names.map((n) => `${n}=${strconvQuote(set[n] ?? '')}`).join(', ')}}`;
}

export interface SeriesQuery {
  metric: string;
  /** Fixed matchers (`direction="inbound"`), merged with the target's. */
  labels: Record<string, string>;
  groupBy: readonly string[];
  window: string;
  resource: StatResource;
}

const selector = (q: SeriesQuery) => `${q.metric}${labelSetText({ ...q.labels, ...queryLabels(q.resource) })}[${q.window}]`;
const groups = (q: SeriesQuery) => [...q.groupBy, ...groupByLabels(q.resource)].join(', ');

/** `sum(increase(<metric>{…}[<window>])) by (<groups>)`. */
export function rateQuery(q: SeriesQuery): string {
  return `sum(increase(${selector(q)})) by (${groups(q)})`;
}

export const QUANTILES = ['0.5', '0.95', '0.99'] as const;
export type Quantile = (typeof QUANTILES)[number];

/** `histogram_quantile(<q>, sum(irate(<metric>{…}[<window>])) by (le, <groups>))`. */
export function quantileQuery(quantile: Quantile, q: SeriesQuery): string {
  return `histogram_quantile(${quantile}, sum(irate(${selector(q)})) by (le, ${groups(q)}))`;
}
