import * as z from 'zod';
import type { CommandBody } from '../../../cli/kit/command.js';
import { UserError } from '../../../core/errors.js';
import { defaultNamespace, TIME_WINDOW_FLAG, withMetricsApi } from './metricsShared.js';

const AuthzFlags = z.object({
  namespace: z.string().optional(),
  timeWindow: z.string(),
  output: z.string(),
  selector: z.string(),
  vizNamespace: z.string().optional(),
});

export const command: CommandBody = {
  apiAddr: true,
  long: 'Display stats for server authorizations for a resource.',
  args: [{ name: 'resource', help: 'the resource (TYPE/NAME or TYPE NAME)', variadic: true }],
  arity: { min: 1 },
  use: '[flags] resource',
  flags: [
    { name: 'namespace', short: 'n', type: 'string', help: 'Namespace of the specified resource', completion: 'namespaces' },
    TIME_WINDOW_FLAG,
    { name: 'output', short: 'o', type: 'string', default: 'table', help: 'Output format; one of: "table" or "json" or "wide"' },
    // Accepted, as the real command accepts it, and not sent.
    { name: 'selector', short: 'l', type: 'string', default: '', help: "Selector (label query) to filter on, supports '=', '==', and '!='" },
  ],
  run: async ({ args, flags, globals, io }) => {
    const resource = (args[0] as string[] | undefined) ?? [];
    const f = AuthzFlags.parse(flags);
    const a = await import('../authz.js');
    const namespace = f.namespace || (await defaultNamespace(globals, io));
    const rows = await withMetricsApi(globals, io, f.vizNamespace, async (api) => {
      let request;
      try {
        request = a.authzRequest(resource, { namespace, timeWindow: f.timeWindow });
      } catch (err) {
        if (err instanceof a.AuthzRequestError) throw new UserError(err.message);
        throw err;
      }
      try {
        return await a.authzRows(api, request);
      } catch (err) {
        if (err instanceof a.AuthzApiError) throw UserError.verbatim(err.message);
        throw err;
      }
    });
    const cells = a.authzCells(rows, f.timeWindow);
    io.stdout.write(f.output === 'json' ? a.authzJson(cells) : a.authzTable(cells));
    return 0;
  },
};
