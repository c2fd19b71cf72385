import * as z from 'zod';
import type { CommandBody } from '../../../cli/kit/command.js';
import { UserError } from '../../../core/errors.js';
import { defaultNamespace, TIME_WINDOW_FLAG, withMetricsApi } from './metricsShared.js';

const RoutesFlags = z.object({
  namespace: z.string().optional(),
  timeWindow: z.string(),
  to: z.string(),
  toNamespace: z.string(),
  output: z.string(),
  selector: z.string(),
  vizNamespace: z.string().optional(),
});

export const command: CommandBody = {
  apiAddr: true,
  long: `Display route stats.

This command will only display traffic which is sent to a service that has a Service Profile defined.`,
  args: [{ name: 'RESOURCE', help: 'the resource whose routes to show', required: true }],
  use: '[flags] (RESOURCES)',
  examples: `  # Routes for the webapp service in the test namespace.
  linkerd viz routes service/webapp -n test

  # Routes for calls from the traffic deployment to the webapp service in the test namespace.
  linkerd viz routes deploy/traffic -n test --to svc/webapp`,
  flags: [
    { name: 'namespace', short: 'n', type: 'string', help: 'Namespace of the specified resource', completion: 'namespaces' },
    TIME_WINDOW_FLAG,
    { name: 'to', type: 'string', default: '', help: 'If present, shows outbound stats to the specified resource' },
    {
      name: 'to-namespace',
      type: 'string',
      default: '',
      help: 'Sets the namespace used to lookup the "--to" resource; by default the current "--namespace" is used',
    },
    { name: 'output', short: 'o', type: 'string', default: 'table', help: 'Output format; one of: "table", "wide", or "json"' },
    { name: 'selector', short: 'l', type: 'string', default: '', help: "Selector (label query) to filter on, supports '=', '==', and '!='" },
  ],
  run: async ({ args, flags, globals, io }) => {
    const f = RoutesFlags.parse(flags);
    const r = await import('../routes.js');
    let request;
    try {
      request = r.routesRequest({
        resource: args[0] as string,
        namespace: f.namespace || (await defaultNamespace(globals, io)),
        timeWindow: f.timeWindow,
        to: f.to,
        toNamespace: f.toNamespace,
        output: f.output,
        labelSelector: f.selector,
      });
    } catch (err) {
      if (err instanceof r.RoutesRequestError) throw new UserError(err.message);
      throw err;
    }
    const tables = await withMetricsApi(globals, io, f.vizNamespace, async (api) => {
      try {
        return await r.topRoutes(api, request);
      } catch (err) {
        if (err instanceof r.RoutesApiError) throw UserError.verbatim(`${err.message}\n`);
        throw err;
      }
    });
    io.stdout.write(f.output === 'json' ? r.routesJson(tables, { to: f.to !== '' }) : r.routesTable(tables, { to: f.to !== '', wide: f.output === 'wide' }));
    return 0;
  },
};
