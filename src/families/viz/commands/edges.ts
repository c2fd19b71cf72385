import * as z from 'zod';
import type { CommandBody } from '../../../cli/kit/command.js';
import { UserError } from '../../../core/errors.js';
import { defaultNamespace, withMetricsApi } from './metricsShared.js';

const EdgesFlags = z.object({ namespace: z.string().optional(), output: z.string(), allNamespaces: z.boolean(), vizNamespace: z.string().optional() });

export const command: CommandBody = {
  apiAddr: true,
  long: `Display connections between resources, and Linkerd proxy identities.

  The RESOURCETYPE argument specifies the type of resource to display edges within.

  Examples:
  * cronjob
  * deploy
  * ds
  * job
  * po
  * rc
  * rs
  * sts

  Valid resource types include:
  * cronjobs
  * daemonsets
  * deployments
  * jobs
  * pods
  * replicasets
  * replicationcontrollers
  * statefulsets`,
  args: [{ name: 'RESOURCETYPE', help: 'the type of resource to display edges within', required: true }],
  use: '[flags] (RESOURCETYPE)',
  examples: `  # Get all edges between pods that either originate from or terminate in the test namespace.
  linkerd viz edges po -n test

  # Get all edges between pods that either originate from or terminate in the default namespace.
  linkerd viz edges po

  # Get all edges between pods in all namespaces.
  linkerd viz edges po --all-namespaces`,
  flags: [
    { name: 'namespace', short: 'n', type: 'string', help: 'Namespace of the specified resource', completion: 'namespaces' },
    { name: 'output', short: 'o', type: 'string', default: 'table', help: 'Output format; one of: "table" or "json" or "wide"' },
    {
      name: 'all-namespaces',
      short: 'A',
      type: 'bool',
      default: false,
      help: 'If present, returns edges across all namespaces, ignoring the "--namespace" flag',
    },
  ],
  run: async ({ args, flags, globals, io }) => {
    const f = EdgesFlags.parse(flags);
    const e = await import('../edges.js');
    let requests;
    try {
      requests = e.edgesRequests([args[0] as string], {
        namespace: f.namespace || (await defaultNamespace(globals, io)),
        allNamespaces: f.allNamespaces,
        output: f.output,
      });
    } catch (err) {
      if (err instanceof e.EdgesRequestError) throw new UserError(`Error creating edges request: ${err.message}`);
      throw err;
    }
    const found = await withMetricsApi(globals, io, f.vizNamespace, async (api) => {
      try {
        return await e.edges(api, requests);
      } catch (err) {
        if (err instanceof e.EdgesApiError) throw UserError.verbatim(err.message);
        throw err;
      }
    });
    if (f.output === 'json') {
      io.stdout.write(e.edgesJson(found));
      return 0;
    }
    const { painterFor } = await import('../../../cli/output/terminal.js');
    const paint = await painterFor(io.stdout, io.env);
    const table = e.edgesTable(found, f.output === 'wide', paint.green(e.OK_STATUS));
    if (table === undefined) io.stderr.write('No edges found.\n');
    else io.stdout.write(table);
    return 0;
  },
};
