import * as z from 'zod';
import { UserError } from '../../core/errors.js';
import type { CommandSpec } from '../../cli/kit/command.js';

/* `diagnostics endpoints`: Destination.Get on port 8086 of linkerd-destination (or --api-addr). */

const DESTINATION_PORT = 8086;
const WAIT_MS = 5_000;

const Options = z.object({ output: z.string().default('table'), destinationPod: z.string().default(''), token: z.string().default('') });

export const endpoints: CommandSpec = {
  apiAddr: true,
  name: 'endpoints',
  aliases: ['ep'],
  summary: "Introspect Linkerd's service discovery state",
  long: "Introspect Linkerd's service discovery state.\n\nThis command provides debug information about the internal state of the\ncontrol-plane's destination container. It queries the same Destination service\nendpoint as the linkerd-proxy's, and returns the addresses associated with that\ndestination.",
  args: [{ name: 'authorities', help: '<svc>.<ns>.svc.<cluster domain>[:port]', variadic: true }],
  examples:
    '  # get all endpoints for the authorities emoji-svc.emojivoto.svc.cluster.local:8080 and web-svc.emojivoto.svc.cluster.local:80\n  linkerd diagnostics endpoints emoji-svc.emojivoto.svc.cluster.local:8080 web-svc.emojivoto.svc.cluster.local:80',
  flags: [
    { name: 'output', short: 'o', type: 'string', default: 'table', help: 'Output format; one of: "table" or "json"' },
    { name: 'destination-pod', type: 'string', default: '', help: 'Target a specific destination Pod when there are multiple running' },
    { name: 'token', type: 'string', default: '', help: 'The context token to use when making the request to the destination API' },
  ],
  run: async ({ args, flags, globals, io }) => {
    const authorities = (args[0] as string[] | undefined) ?? [];
    if (authorities.length < 1) throw new UserError(`requires at least 1 arg(s), only received 0`);
    const o = Options.parse(flags);
    if (o.output !== 'table' && o.output !== 'json') throw new UserError('--output currently only supports table and json');
    const [grpcForward, { getEndpoints, DestinationError }, print] = await Promise.all([
      import('../../core/kube/grpcForward.js'),
      import('./endpoints.js'),
      import('./printEndpoints.js'),
    ]);
    let conn;
    try {
      if (globals.apiAddr) conn = grpcForward.grpcAt(globals.apiAddr);
      else {
        const { connectKube } = await import('../../core/kube/kubeClient.js');
        const kube = await connectKube(globals);
        const pod = o.destinationPod || (await grpcForward.runningPodOf(kube, globals.linkerdNamespace, 'linkerd-destination'));
        conn = await grpcForward.grpcThroughPortForward(kube, globals.linkerdNamespace, pod, DESTINATION_PORT);
      }
    } catch (e) {
      io.stderr.write(`Error creating destination client: ${e instanceof Error ? e.message : String(e)}\n`);
      return 1;
    }
    try {
      const found = await getEndpoints(conn.client, authorities, o.token, WAIT_MS);
      if (o.output === 'json') io.stdout.write(print.endpointsJson(found));
      else if (found.length === 0) io.stderr.write('No endpoints found.\n');
      else io.stdout.write(print.endpointsTable(found));
      return 0;
    } catch (e) {
      if (e instanceof DestinationError) {
        io.stderr.write(`Destination API error: ${e.message}\n`);
        return 1;
      }
      throw e;
    } finally {
      conn.close();
    }
  },
};
