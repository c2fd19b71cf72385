import { parseGoDuration } from '../../core/values/duration.js';
import type { MetricsApi } from './metricsApi/client.js';
import { MetricsApiError } from './metricsApi/client.js';
import type { Resource, StatRow, StatSummaryRequest } from './metricsApi/proto.js';
import { buildResource, buildResources } from './metricsApi/resources.js';

/*
 * `viz stat`: one StatSummary request per target (linkerd's buildStatSummaryRequests and
 * BuildStatSummaryRequest, with their checks and words), sent at once; the rows of every answer.
 */

export const STAT_OUTPUTS = ['table', 'json', 'wide'] as const;
export type StatOutput = (typeof STAT_OUTPUTS)[number];

export interface StatOptions {
  resources: readonly string[];
  /** `-n`, or the kubeconfig context's namespace. */
  namespace: string;
  /** The kubeconfig context's namespace, which `-n` is compared with. */
  defaultNamespace: string;
  timeWindow: string;
  to: string;
  toNamespace: string;
  from: string;
  fromNamespace: string;
  allNamespaces: boolean;
  output: string;
  labelSelector: string;
}

/** A refusal of the flags, before anything is asked (`error creating metrics request …`). */
export class StatRequestError extends Error {}

/** A failed answer, printed as the real command prints it. */
export class StatApiError extends Error {}

function validate(o: StatOptions, type: string): void {
  if (o.to && o.from) throw new StatRequestError('--to and --from flags are mutually exclusive');
  if (o.toNamespace && o.fromNamespace) throw new StatRequestError('--to-namespace and --from-namespace flags are mutually exclusive');
  if (o.allNamespaces && o.namespace !== o.defaultNamespace) throw new StatRequestError('--all-namespaces and --namespace flags are mutually exclusive');
  if (type === 'namespace') {
    if (o.toNamespace) throw new StatRequestError('--to-namespace flag is incompatible with namespace resource type');
    if (o.fromNamespace) throw new StatRequestError('--from-namespace flag is incompatible with namespace resource type');
    if (o.namespace !== o.defaultNamespace) throw new StatRequestError('--namespace flag is incompatible with namespace resource type');
  }
  if (!(STAT_OUTPUTS as readonly string[]).includes(o.output)) throw new StatRequestError('--output currently only supports table, json and wide');
}

const MIN_WINDOW_NS = 15_000_000_000n;

function timeWindow(window: string): string {
  if (window === '') return '1m';
  let ns: bigint;
  try {
    ns = parseGoDuration(window);
  } catch (e) {
    throw new StatRequestError((e as Error).message);
  }
  if (ns < MIN_WINDOW_NS) throw new StatRequestError('metrics time window needs to be at least 15s');
  return window;
}

function wrapped<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw e instanceof StatRequestError ? e : new StatRequestError((e as Error).message);
  }
}

/** The requests `viz stat` sends, or the refusal of its flags. */
export function statRequests(o: StatOptions): StatSummaryRequest[] {
  return wrapped(() => {
    const targets = buildResources(o.namespace, o.resources);
    const toRes = o.to ? buildResource(o.toNamespace, o.to) : undefined;
    const fromRes = o.from ? buildResource(o.fromNamespace, o.from) : undefined;
    return targets.map((target) => {
      validate(o, target.type);
      const window = timeWindow(o.timeWindow);
      if (o.allNamespaces && target.name) throw new StatRequestError('stats for a resource cannot be retrieved by name across all namespaces');
      const ns = o.allNamespaces ? '' : o.namespace || 'default';
      const other = (r: Resource, namespace: string): Resource => ({ namespace: namespace || ns, type: r.type || target.type, name: r.name });
      const outbound: StatSummaryRequest['outbound'] = toRes
        ? { case: 'toResource', value: other(toRes, o.toNamespace) }
        : fromRes
          ? { case: 'fromResource', value: other(fromRes, o.fromNamespace) }
          : { case: undefined };
      return {
        selector: { resource: { namespace: ns, type: target.type, name: target.name }, labelSelector: o.labelSelector },
        timeWindow: window,
        outbound,
        tcpStats: true,
      };
    });
  });
}

/** Every request at once; the first failure (in request order) is the command's. */
export async function statRows(api: MetricsApi, requests: readonly StatSummaryRequest[]): Promise<StatRow[]> {
  const answers = await Promise.allSettled(requests.map((r) => api.call('StatSummary', r)));
  const rows: StatRow[] = [];
  for (const a of answers) {
    if (a.status === 'rejected') {
      const e: unknown = a.reason;
      if (e instanceof MetricsApiError) throw new StatApiError(`StatSummary API error: ${e.message}`);
      throw e;
    }
    const res = a.value.response;
    if (res.case === 'error') throw new StatApiError(`StatSummary API response error: ${res.value.error}`);
    if (res.case === 'ok') for (const t of res.value.statTables) if (t.table.case === 'podGroup') rows.push(...t.table.value.rows);
  }
  return rows;
}
