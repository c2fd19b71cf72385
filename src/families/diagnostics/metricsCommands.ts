import * as z from 'zod';
import { UserError } from '../../core/errors.js';
import { ADMIN_PORT_NAME } from '../../core/mesh/names.js';
import type { CommandSpec } from '../../cli/kit/command.js';

/*
 * `diagnostics controller-metrics` and `diagnostics proxy-metrics`: fetch, then print each pod's
 * result as the real commands do. The real proxy-metrics waits a fixed 30 s.
 */

const PROXY_WAIT_MS = 30_000;

const ProxyOptions = z.object({ namespace: z.string().default(''), obfuscate: z.boolean().default(false) });
const ControllerOptions = z.object({ wait: z.string().default('30s') });

async function waitMs(text: string): Promise<number> {
  const { parseGoDuration } = await import('../../core/parse/goDuration.js');
  return Number(parseGoDuration(text) / 1_000_000n);
}

export const controllerMetrics: CommandSpec = {
  name: 'controller-metrics',
  aliases: ['cp-metrics'],
  summary: 'Fetch metrics directly from the Linkerd control plane containers',
  long: 'Fetch metrics directly from Linkerd control plane containers.\n\n  This command initiates port-forward to each control plane process, and\n  queries the /metrics endpoint on them.',
  flags: [{ name: 'wait', short: 'w', type: 'duration', default: '30s', help: 'Time allowed to fetch diagnostics' }],
  run: async ({ flags, globals, io }) => {
    const o = ControllerOptions.parse({ wait: flags.wait });
    const timeoutMs = await waitMs(o.wait);
    const [{ connectKube }, { fetchMetrics }, { printControllerMetrics }] = await Promise.all([
      import('../../core/kube/kubeClient.js'),
      import('./metrics.js'),
      import('./printMetrics.js'),
    ]);
    const kube = await connectKube(globals);
    const pods = await kube.list('pods', { namespace: globals.linkerdNamespace });
    io.stdout.write(printControllerMetrics(await fetchMetrics(kube, pods, '-admin', timeoutMs)));
    return 0;
  },
};

export const proxyMetrics: CommandSpec = {
  name: 'proxy-metrics',
  summary: 'Fetch metrics directly from Linkerd proxies',
  long: `Fetch metrics directly from Linkerd proxies.

  This command initiates a port-forward to a given pod or set of pods, and
  queries the /metrics endpoint on the Linkerd proxies.

  The RESOURCE argument specifies the target resource to query metrics for:
  (TYPE/NAME)

  Examples:
  * cronjob/my-cronjob
  * deploy/my-deploy
  * ds/my-daemonset
  * job/my-job
  * po/mypod1
  * rc/my-replication-controller
  * sts/my-statefulset

  Valid resource types include:
  * cronjobs
  * daemonsets
  * deployments
  * jobs
  * pods
  * replicasets
  * replicationcontrollers
  * statefulsets`,
  args: [{ name: 'RESOURCE', help: 'TYPE/NAME of the workload', variadic: true }],
  examples: '  # Get metrics from pod-foo-bar in the default namespace.\n  linkerd diagnostics proxy-metrics po/pod-foo-bar',
  flags: [
    { name: 'namespace', short: 'n', type: 'string', default: '', help: 'Namespace of resource', completion: 'namespaces' },
    { name: 'obfuscate', type: 'bool', default: false, help: 'Obfuscate sensitive information' },
  ],
  run: async ({ args, flags, globals, io }) => {
    const words = (args[0] as string[] | undefined) ?? [];
    if (words.length !== 1) throw new UserError(`accepts 1 arg(s), received ${words.length}`);
    const o = ProxyOptions.parse(flags);
    const [{ connectKube }, { canonicalResourceName }, { podsFor }, { fetchMetrics }, { printProxyMetrics }, { obfuscateMetrics }] = await Promise.all([
      import('../../core/kube/kubeClient.js'),
      import('../../core/kube/friendlyNames.js'),
      import('../../core/kube/podsFor.js'),
      import('./metrics.js'),
      import('./printMetrics.js'),
      import('./obfuscate.js'),
    ]);
    const [type = '', name, ...rest] = (words[0] ?? '').split('/');
    if (rest.length > 0) throw new UserError(`invalid resource string: ${words[0] ?? ''}`);
    if (name === undefined || name === '') throw new UserError('no resource name provided');
    const kube = await connectKube(globals);
    const pods = await podsFor(kube, o.namespace || kube.namespace, canonicalResourceName(type), name).catch((e: unknown) => {
      throw new UserError(e instanceof Error ? e.message : String(e));
    });
    const results = await fetchMetrics(kube, pods, ADMIN_PORT_NAME, PROXY_WAIT_MS);
    io.stdout.write(printProxyMetrics(results, o.obfuscate ? obfuscateMetrics : undefined));
    return 0;
  },
};
