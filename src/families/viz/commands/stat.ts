import * as z from 'zod';
import type { CommandBody } from '../../../cli/kit/command.js';
import { UserError } from '../../../core/errors.js';
import { defaultNamespace, TIME_WINDOW_FLAG, withMetricsApi } from './metricsShared.js';

const StatFlags = z.object({
  namespace: z.string().optional(),
  timeWindow: z.string(),
  to: z.string(),
  toNamespace: z.string(),
  from: z.string(),
  fromNamespace: z.string(),
  allNamespaces: z.boolean(),
  output: z.string(),
  selector: z.string(),
  unmeshed: z.boolean(),
  vizNamespace: z.string().optional(),
});

export const command: CommandBody = {
  apiAddr: true,
  long: `Display traffic stats about one or many resources.

  The RESOURCES argument specifies the target resource(s) to aggregate stats over:
  (TYPE [NAME] | TYPE/NAME)
  or (TYPE [NAME1] [NAME2]...)
  or (TYPE1/NAME1 TYPE2/NAME2...)

  Examples:
  * cronjob/my-cronjob
  * deploy
  * deploy/my-deploy
  * deploy/ po/
  * ds/my-daemonset
  * job/my-job
  * ns/my-ns
  * po/mypod1 rc/my-replication-controller
  * po mypod1 mypod2
  * rc/my-replication-controller
  * rs
  * rs/my-replicaset
  * sts/my-statefulset
  * all

  Valid resource types include:
  * cronjobs
  * daemonsets
  * deployments
  * namespaces
  * jobs
  * pods
  * replicasets
  * replicationcontrollers
  * statefulsets
  * services (only supported if a --from is also specified, or as a --to)
  * servers
  * serverauthorizations
  * authorizationpolicies
  * httproutes
  * all (all resource types, not supported in --from or --to)

This command will hide resources that have completed, such as pods that are in the Succeeded or Failed phases.
If no resource name is specified, displays stats about all resources of the specified RESOURCETYPE`,
  args: [{ name: 'RESOURCES', help: 'the resources to show stats about', variadic: true }],
  arity: { min: 1 },
  use: '[flags] (RESOURCES)',
  examples: `  # Get all deployments in the test namespace.
  linkerd viz stat deployments -n test

  # Get the hello1 replication controller in the test namespace.
  linkerd viz stat replicationcontrollers hello1 -n test

  # Get all namespaces.
  linkerd viz stat namespaces

  # Get all inbound stats to the web deployment.
  linkerd viz stat deploy/web

  # Get all inbound stats to the pod1 and pod2 pods
  linkerd viz stat po pod1 pod2

  # Get all inbound stats to the pod1 pod and the web deployment
  linkerd viz stat po/pod1 deploy/web

  # Get all pods in all namespaces that call the hello1 deployment in the test namespace.
  linkerd viz stat pods --to deploy/hello1 --to-namespace test --all-namespaces

  # Get all pods in all namespaces that call the hello1 service in the test namespace.
  linkerd viz stat pods --to svc/hello1 --to-namespace test --all-namespaces

  # Get all services in all namespaces that receive calls from hello1 deployment in the test namespace.
  linkerd viz stat services --from deploy/hello1 --from-namespace test --all-namespaces

  # Get all namespaces that receive traffic from the default namespace.
  linkerd viz stat namespaces --from ns/default

  # Get all inbound stats to the test namespace.
  linkerd viz stat ns/test`,
  flags: [
    { name: 'namespace', short: 'n', type: 'string', help: 'Namespace of the specified resource', completion: 'namespaces' },
    TIME_WINDOW_FLAG,
    { name: 'to', type: 'string', default: '', help: 'If present, restricts outbound stats to the specified resource name' },
    {
      name: 'to-namespace',
      type: 'string',
      default: '',
      help: 'Sets the namespace used to lookup the "--to" resource; by default the current "--namespace" is used',
    },
    { name: 'from', type: 'string', default: '', help: 'If present, restricts outbound stats from the specified resource name' },
    {
      name: 'from-namespace',
      type: 'string',
      default: '',
      help: 'Sets the namespace used from lookup the "--from" resource; by default the current "--namespace" is used',
    },
    {
      name: 'all-namespaces',
      short: 'A',
      type: 'bool',
      default: false,
      help: 'If present, returns stats across all namespaces, ignoring the "--namespace" flag',
    },
    { name: 'output', short: 'o', type: 'string', default: 'table', help: 'Output format; one of: "table" or "json" or "wide"' },
    { name: 'selector', short: 'l', type: 'string', default: '', help: "Selector (label query) to filter on, supports '=', '==', and '!='" },
    { name: 'unmeshed', type: 'bool', default: false, help: 'If present, include unmeshed resources in the output' },
  ],
  run: async ({ args, flags, globals, io }) => {
    const resources = (args[0] as string[] | undefined) ?? [];
    const f = StatFlags.parse(flags);
    const [stat, print] = await Promise.all([import('../stat.js'), import('../print/statTable.js')]);
    const contextNamespace = await defaultNamespace(globals, io);
    let requests;
    try {
      requests = stat.statRequests({
        resources,
        namespace: f.namespace ?? contextNamespace,
        defaultNamespace: contextNamespace,
        timeWindow: f.timeWindow,
        to: f.to,
        toNamespace: f.toNamespace,
        from: f.from,
        fromNamespace: f.fromNamespace,
        allNamespaces: f.allNamespaces,
        output: f.output,
        labelSelector: f.selector,
      });
    } catch (e) {
      if (e instanceof stat.StatRequestError) throw new UserError(`error creating metrics request while making stats request: ${e.message}`);
      throw e;
    }
    const rows = await withMetricsApi(globals, io, f.vizNamespace, async (api) => {
      try {
        return await stat.statRows(api, requests);
      } catch (e) {
        if (e instanceof stat.StatApiError) throw UserError.verbatim(e.message);
        throw e;
      }
    });
    const options = { output: f.output as 'table' | 'json' | 'wide', allNamespaces: f.allNamespaces, unmeshed: f.unmeshed, from: f.from !== '' };
    if (options.output === 'json') {
      io.stdout.write(print.statJson(rows, options));
      return 0;
    }
    const table = print.statTable(rows, options);
    if (table === undefined) io.stderr.write('No traffic found.\n');
    else io.stdout.write(table);
    return 0;
  },
};
