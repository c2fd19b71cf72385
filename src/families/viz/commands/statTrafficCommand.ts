import * as z from 'zod';
import type { CommandBody } from '../../../cli/kit/command.js';

/* `viz stat-inbound` and `viz stat-outbound`: the same flags, the same path, one direction each. */

const StatTrafficOptions = z.object({
  output: z.string(),
  namespace: z.string().optional(),
  timeWindow: z.string(),
  prometheusURL: z.string().optional(),
  vizNamespace: z.string().optional(),
});

const RESOURCE_HELP = (verb: string) => `  The RESOURCE argument specifies the target resource to ${verb}:
  TYPE/NAME

  Examples:
  * cronjob/my-cronjob
  * deploy/my-deploy
  * ds/my-daemonset
  * job/my-job
  * ns/my-ns
  * rc/my-replication-controller
  * rs/my-replicaset
  * sts/my-statefulset

  Valid resource types include:
  * cronjobs
  * daemonsets
  * deployments
  * namespaces
  * jobs
  * pods
  * replicasets
  * replicationcontrollers
  * statefulsets`;

export function statTrafficCommand(direction: 'inbound' | 'outbound'): CommandBody {
  return {
    long:
      direction === 'inbound'
        ? `Display inbound traffic stats about a resource.\n\n${RESOURCE_HELP('display stats from')}`
        : `Display outbound traffic stats about a resource.\n\n${RESOURCE_HELP('aggregate stats over')}`,
    args: [{ name: 'RESOURCE', help: 'TYPE/NAME of the target', variadic: true }],
    arity: { min: 1 },
    use: '[flags] (RESOURCE)',
    flags: [
      { name: 'output', short: 'o', type: 'string', default: 'table', help: 'Output format; one of: "table" or "json" or "wide"' },
      { name: 'namespace', short: 'n', type: 'string', help: 'Namespace', completion: 'namespaces' },
      { name: 'time-window', short: 't', type: 'string', default: '1m', help: 'Stat window (for example: "10s", "1m", "10m", "1h")' },
      { name: 'prometheusURL', type: 'string', help: 'Address of Prometheus instance to query' },
    ],
    run: async ({ args, flags, globals, io }) => {
      const words = (args[0] as string[] | undefined) ?? [];
      const o = StatTrafficOptions.parse(flags);
      const { statTraffic } = await import('../statTraffic.js');
      io.stdout.write(
        await statTraffic({
          direction,
          cluster: globals,
          env: io.env,
          resource: words[0] ?? '',
          namespace: o.namespace,
          window: o.timeWindow,
          output: o.output,
          prometheusUrl: o.prometheusURL,
          vizNamespace: o.vizNamespace,
        }),
      );
    },
  };
}
