import * as z from 'zod';
import type { CommandSpec } from '../../cli/kit/command.js';

/*
 * `diagnostics profile ADDRESS`: the first DestinationProfile the destination controller
 * (port 8086 of linkerd-destination) streams for an authority or IP:port, printed as Go's
 * indented JSON of the message.
 */

const DESTINATION_PORT = 8086;
/** The real CLI waits as long as the server takes; we wait at most this. */
const DEADLINE_MS = 30_000;

const Options = z.object({ destinationPod: z.string().default(''), token: z.string().default('') });

export const profile: CommandSpec = {
  apiAddr: true,
  name: 'profile',
  // The real command also declares alias `ep`, which cobra always resolves to `endpoints`
  // (registered first); commander refuses the clash, so the dead alias is left out.
  summary: "Introspect Linkerd's service discovery state",
  long: "Introspect Linkerd's service discovery state.\n\nThis command provides debug information about the internal state of the\ncontrol-plane's destination controller. It queries the same Destination service\nendpoint as the linkerd-proxy's, and returns the profile associated with that\ndestination.",
  args: [{ name: 'address', help: 'a service authority or IP:port', required: true }],
  examples: '  # Get the service profile for the service or endopint at 10.20.2.4:8080\n  linkerd diagnostics profile 10.20.2.4:8080',
  flags: [
    { name: 'destination-pod', type: 'string', default: '', help: 'Target a specific destination Pod when there are multiple running' },
    { name: 'token', type: 'string', default: '', help: 'The context token to use when making the request to the destination API' },
  ],
  run: async ({ args, flags, globals, io }) => {
    const o = Options.parse(flags);
    const [address] = z.tuple([z.string()]).parse(args);
    const [{ controllerGrpc }, { firstOfStream }, messages, { goJsonIndent }] = await Promise.all([
      import('./connect.js'),
      import('./rpc.js'),
      import('./proto/messages.js'),
      import('./goJson.js'),
    ]);
    let conn;
    try {
      conn = await controllerGrpc(globals, undefined, o.destinationPod, DESTINATION_PORT);
    } catch (e) {
      io.stderr.write(`Error creating destination client: ${e instanceof Error ? e.message : String(e)}\n`);
      return 1;
    }
    try {
      const found = await firstOfStream(
        conn.client,
        messages.DESTINATION_GET_PROFILE,
        messages.GetDestination,
        { path: address, context_token: o.token },
        messages.DestinationProfile,
        DEADLINE_MS,
      );
      io.stdout.write(goJsonIndent(found) + '\n');
      return 0;
    } catch (e) {
      io.stderr.write(`Destination API error: ${e instanceof Error ? e.message : String(e)}\n`);
      return 1;
    } finally {
      conn.close();
    }
  },
};
