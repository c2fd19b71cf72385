import { MetricsApiError, type MetricsApi } from './metricsApi/client.js';
import type { Edge, EdgesRequest } from './metricsApi/proto.js';
import { buildResources } from './metricsApi/resources.js';
import { stripLeadingPadding, tabwrite } from './print/tabwriter.js';

/*
 * `viz edges` (linkerd's viz/cmd/edges.go): one Edges request per resource type, the edges of
 * every answer, sorted by namespaces then names; a table of hand-padded columns, or JSON.
 */

export class EdgesRequestError extends Error {}
export class EdgesApiError extends Error {}

export function edgesRequests(args: readonly string[], o: { namespace: string; allNamespaces: boolean; output: string }): EdgesRequest[] {
  let targets;
  try {
    targets = buildResources(o.namespace, args);
  } catch (e) {
    throw new EdgesRequestError((e as Error).message);
  }
  for (const t of targets) {
    if (t.name) throw new EdgesRequestError(`Edges cannot be returned for a specific resource name; remove ${t.name} from query`);
    if (['authority', 'service', 'all'].includes(t.type)) throw new EdgesRequestError(`Resource type is not supported: ${t.type}`);
  }
  if (!['table', 'json', 'wide'].includes(o.output)) throw new EdgesRequestError('--output supports table, json and wide');
  return targets.map((t) => ({ selector: { resource: { namespace: o.allNamespaces ? '' : o.namespace, type: t.type, name: '' }, labelSelector: '' } }));
}

export async function edges(api: MetricsApi, requests: readonly EdgesRequest[]): Promise<Edge[]> {
  const answers = await Promise.allSettled(requests.map((r) => api.call('Edges', r)));
  const out: Edge[] = [];
  for (const a of answers) {
    if (a.status === 'rejected') {
      const e: unknown = a.reason;
      if (e instanceof MetricsApiError) throw new EdgesApiError(`Edges API error: ${e.message}`);
      throw e;
    }
    const res = a.value.response;
    if (res.case === 'error') throw new EdgesApiError(`Edges API response error: ${res.value.error}`);
    if (res.case === 'ok') out.push(...res.value.edges);
  }
  return out;
}

interface EdgeRow {
  src: string;
  srcNamespace: string;
  dst: string;
  dstNamespace: string;
  client: string;
  server: string;
  msg: string;
}

/** `name.namespace` of an identity (its first two labels). */
const shortId = (id: string) => (id ? id.split('.').slice(0, 2).join('.') : '');

function rows(list: readonly Edge[], json: boolean, secured: string = OK_STATUS): EdgeRow[] {
  return list
    .map((e) => ({
      src: e.src?.name ?? '',
      srcNamespace: e.src?.namespace ?? '',
      dst: e.dst?.name ?? '',
      dstNamespace: e.dst?.namespace ?? '',
      client: shortId(e.clientId),
      server: shortId(e.serverId),
      msg: e.noIdentityMsg || (json ? '' : secured),
    }))
    .sort((a, b) => {
      const ka = a.srcNamespace + a.dstNamespace + a.src + a.dst;
      const kb = b.srcNamespace + b.dstNamespace + b.src + b.dst;
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
}

/** Go's `%-Ns`: padded to N runes. */
// eslint-disable-next-line @typescript-eslint/no-misused-spread
const pad = (s: string, n: number) => s + ' '.repeat(Math.max(0, n - [...s].length));

/** The SECURED mark of an edge whose both ends have an identity (green on a terminal). */
export const OK_STATUS = '√';

/**
 * The table, or undefined when there is no edge (`No edges found.`). `secured` is the mark as it
 * prints (painted green on a terminal); like linkerd's len(), the widths count its bytes.
 */
export function edgesTable(list: readonly Edge[], wide: boolean, secured: string = OK_STATUS): string | undefined {
  const r = rows(list, false, secured);
  if (r.length === 0) return undefined;
  const cols: Array<[keyof EdgeRow, string]> = [
    ['src', 'SRC'],
    ['dst', 'DST'],
    ['srcNamespace', 'SRC_NS'],
    ['dstNamespace', 'DST_NS'],
    ...(wide
      ? ([
          ['client', 'CLIENT_ID'],
          ['server', 'SERVER_ID'],
        ] as Array<[keyof EdgeRow, string]>)
      : []),
    ['msg', 'SECURED'],
  ];
  // Widths in bytes, as linkerd measures them with len().
  const widths = cols.map(([k, h]) => Math.max(h.length, ...r.map((x) => Buffer.byteLength(x[k]))));
  const line = (cells: string[]) => `${cells.map((c, i) => pad(c, widths[i] ?? 0)).join('\t')}\t\n`;
  const text = line(cols.map(([, h]) => h)) + r.map((x) => line(cols.map(([k]) => x[k]))).join('');
  return stripLeadingPadding(tabwrite(text));
}

export function edgesJson(list: readonly Edge[]): string {
  const out = rows(list, true).map((x) => ({
    src: x.src,
    src_namespace: x.srcNamespace,
    dst: x.dst,
    dst_namespace: x.dstNamespace,
    client_id: x.client,
    server_id: x.server,
    no_tls_reason: x.msg,
  }));
  return `${JSON.stringify(out, null, 2)}\n`;
}
