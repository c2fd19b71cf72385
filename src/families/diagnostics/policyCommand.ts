import * as z from 'zod';
import { UserError } from '../../core/errors.js';
import type { CommandSpec } from '../../cli/kit/command.js';

/*
 * `diagnostics policy RESOURCE PORT`: what the policy controller (port 8090 of linkerd-destination)
 * tells a proxy — the inbound policy of a pod's port (InboundServerPolicies.GetPort) or the
 * outbound policy of a Service's port (OutboundPolicies.Get) — printed as the real CLI marshals
 * the Go message (YAML by default, or JSON).
 */

const POLICY_PORT = 8090;
/** The real CLI waits as long as the server takes; we wait at most this. */
const DEADLINE_MS = 30_000;

const Operands = z.tuple([z.string(), z.string()]);

const Options = z.object({
  destinationPod: z.string().default(''),
  token: z.string().default('default:diagnostics'),
  namespace: z.string().default('default'),
  output: z.string().default('yaml'),
});

export const policy: CommandSpec = {
  apiAddr: true,
  name: 'policy',
  summary: "Introspect Linkerd's policy state",
  long: "Introspect Linkerd's policy state.\n\nThis command provides debug information about the internal state of the\ncontrol-plane's policy controller. It queries the same control-plane\nendpoint as the linkerd-proxy's, and returns the policies associated with the\ngiven resource. If the resource is a Pod, inbound policy for that Pod is\ndisplayed. If the resource is a Service, outbound policy for that Service is\ndisplayed.",
  args: [
    { name: 'resource', help: 'po/<pod> or svc/<service>', required: true },
    { name: 'port', help: 'the port number', required: true },
  ],
  examples:
    '  # get the inbound policy for pod emoji-6d66d87995-bvrnn on port 8080\n  linkerd diagnostics policy -n emojivoto po/emoji-6d66d87995-bvrnn 8080\n\n  # get the outbound policy for Service emoji-svc on port 8080\n  linkerd diagnostics policy -n emojivoto svc/emoji-svc 8080',
  flags: [
    { name: 'destination-pod', type: 'string', default: '', help: 'Target a specific destination Pod when there are multiple running' },
    { name: 'token', type: 'string', default: 'default:diagnostics', help: 'Token to use when querying the policy service' },
    { name: 'namespace', short: 'n', type: 'string', default: 'default', help: 'Namespace of resource', completion: 'namespaces' },
    { name: 'output', short: 'o', type: 'string', default: 'yaml', help: 'Output format. One of: yaml, json' },
  ],
  run: async ({ args, flags, globals, io }) => {
    const o = Options.parse(flags);
    const [{ connectKube }, { controllerGrpc }, { queryPolicy, parsePolicyArgs }, { goJsonIndent, goYaml }] = await Promise.all([
      import('../../core/kube/kubeClient.js'),
      import('./connect.js'),
      import('./policy.js'),
      import('./goJson.js'),
    ]);
    // As the real command: a kube client even with --api-addr, the connection, then the operands.
    let conn;
    try {
      const kube = await connectKube(globals);
      conn = await controllerGrpc(globals, kube, o.destinationPod, POLICY_PORT);
    } catch (e) {
      throw new UserError(e instanceof Error ? e.message : String(e), { cause: e });
    }
    try {
      const target = parsePolicyArgs(...Operands.parse(args), o.namespace, o.token);
      const result = await queryPolicy(conn.client, target, DEADLINE_MS);
      // The output format is checked after the call, as in the real command.
      if (o.output === 'json') io.stdout.write(goJsonIndent(result));
      else if (o.output === 'yaml') io.stdout.write(goYaml(result));
      else throw new UserError('output must be one of: yaml, json');
    } finally {
      conn.close();
    }
  },
};
