import { UserError } from '../../core/errors.js';
import { parseResourceArg } from '../../core/kube/friendlyNames.js';
import { loadKubeConfig, type KubeSelection } from '../../core/kube/kubeconfig.js';
import { parseGoDuration } from '../../core/parse/goDuration.js';
import { connectPrometheus } from './prometheus/connect.js';
import type { StatResource } from './prometheus/queries.js';
import { inboundJson, inboundTable, statInbound } from './statInbound.js';
import { outboundJson, outboundTable, statOutbound } from './statOutbound.js';

/*
 * The one path of `viz stat-inbound` and `stat-outbound`, in the real order: Prometheus first
 * (its connection errors come before any argument error), then the target, the queries, and the
 * time window, parsed for the rates only once the queries are answered.
 */

export interface StatTrafficRequest {
  direction: 'inbound' | 'outbound';
  cluster: KubeSelection;
  env: NodeJS.ProcessEnv;
  resource: string;
  /** `-n`; the kubeconfig context's namespace when empty. */
  namespace?: string;
  window: string;
  output: string;
  prometheusUrl?: string;
  vizNamespace?: string;
  timeoutMs?: number;
}

/** pkg/cmd GetDefaultNamespace: the context's namespace, `default` when there is none or no kubeconfig. */
export async function contextNamespace(cluster: KubeSelection, env: NodeJS.ProcessEnv): Promise<string> {
  try {
    return (await loadKubeConfig(cluster, env)).namespace;
  } catch {
    return 'default';
  }
}

/** BuildResource: `TYPE` or `TYPE/NAME`; a namespace target drops `-n`. */
export function statResource(arg: string, namespace: string): StatResource {
  const r = parseResourceArg([arg], (a) => `Invalid resource string: ${a}`);
  return { type: r.type, name: r.name, namespace: r.type === 'namespace' ? '' : namespace };
}

type Printer = (windowSeconds: number) => string;

/** The window in seconds (time.ParseDuration), then the printer `-o` names. */
function render(req: StatTrafficRequest, json: Printer, table: Printer): string {
  let seconds: number;
  try {
    seconds = Number(parseGoDuration(req.window)) / 1e9;
  } catch (e) {
    throw new UserError((e as Error).message);
  }
  if (req.output === 'json') return json(seconds);
  if (req.output === 'table' || req.output === '') return table(seconds);
  throw new UserError(`Invalid output format: ${req.output}`);
}

export async function statTraffic(req: StatTrafficRequest): Promise<string> {
  const namespace = req.namespace || (await contextNamespace(req.cluster, req.env));
  const client = await connectPrometheus({
    cluster: req.cluster,
    env: req.env,
    url: req.prometheusUrl,
    vizNamespace: req.vizNamespace,
    timeoutMs: req.timeoutMs,
  });
  try {
    const resource = statResource(req.resource, namespace);
    if (req.direction === 'inbound') {
      const rows = await statInbound(client, resource, req.window);
      return render(
        req,
        (seconds) => inboundJson(rows, seconds),
        (seconds) => inboundTable(rows, seconds),
      );
    }
    const routes = await statOutbound(client, resource, req.window);
    return render(
      req,
      (seconds) => outboundJson(routes, seconds),
      (seconds) => outboundTable(routes, seconds),
    );
  } finally {
    client.close();
  }
}
