import type { GlobalOptions } from '../../../cli/globals.js';
import type { CliIo } from '../../../cli/kit/io.js';
import type { FlagSpec } from '../../../cli/kit/flags.js';
import type { MetricsApi } from '../metricsApi/client.js';

/*
 * What the metrics-API commands (stat, edges, routes, authz) share: flags, namespace, the client.
 * `--viz-namespace` is `viz`'s own persistent flag (index.ts); each command reads it with its flags.
 */

export const TIME_WINDOW_FLAG: FlagSpec = {
  name: 'time-window',
  short: 't',
  type: 'string',
  default: '1m',
  help: 'Stat window (for example: "15s", "1m", "10m", "1h"). Needs to be at least 15s.',
};

/** linkerd's GetDefaultNamespace: the kubeconfig context's namespace, `default` when there is none to read. */
export async function defaultNamespace(globals: GlobalOptions, io: CliIo): Promise<string> {
  try {
    const { loadKubeConfig } = await import('../../../core/kube/kubeconfig.js');
    return (await loadKubeConfig(globals, io.env)).namespace;
  } catch {
    return 'default';
  }
}

/** The pre-check and the client, `use`d, then closed. */
export async function withMetricsApi<T>(globals: GlobalOptions, io: CliIo, vizNamespace: string | undefined, use: (api: MetricsApi) => Promise<T>): Promise<T> {
  const { openMetricsApi } = await import('../metricsApi/connect.js');
  const opened = await openMetricsApi({ cluster: globals, apiAddr: globals.apiAddr, vizNamespace, env: io.env });
  try {
    return await use(opened.api);
  } finally {
    opened.close();
  }
}
