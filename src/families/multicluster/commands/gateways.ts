import * as z from 'zod';
import type { CommandSpec } from '../../../cli/kit/command.js';
import { UserError } from '../../../core/errors.js';
import { invalidArgument } from '../../../core/parse/invalidArgument.js';
import { parseGoDuration } from '../../../core/parse/goDuration.js';

const Options = z.object({ clusterName: z.string(), wait: z.string(), output: z.string() });

export const gatewaysCommand: CommandSpec = {
  name: 'gateways',
  summary: 'Display stats information about the gateways in target clusters',
  examples: '  # Display gateways stats\n  linkerd multicluster gateways',
  flags: [
    { name: 'cluster-name', type: 'string', default: '', help: 'the name of the target cluster' },
    { name: 'wait', short: 'w', type: 'duration', default: '30s', help: 'time allowed to fetch diagnostics' },
    { name: 'output', short: 'o', type: 'string', default: '', help: 'used to print output in different format' },
  ],
  run: async ({ flags, globals, io }) => {
    const opts = Options.parse(flags);
    let waitMs: number;
    try {
      waitMs = Number(parseGoDuration(opts.wait) / 1_000_000n);
    } catch (e) {
      throw invalidArgument(opts.wait, 'wait', (e as Error).message);
    }
    const [{ withCluster }, { gatewayRows, gatewaysJson, gatewaysTable }] = await Promise.all([import('../cluster.js'), import('../gateways/gateways.js')]);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new UserError(`Failed to get gateway metrics for cluster ${opts.clusterName}: timed out waiting for metrics`)), waitMs);
    });
    try {
      const rows = await withCluster(globals, (c) =>
        Promise.race([gatewayRows(c, { clusterName: opts.clusterName, timeoutMs: waitMs, warn: (l) => io.stderr.write(`${l}\n`) }), deadline]),
      );
      io.stdout.write(opts.output === 'json' ? gatewaysJson(rows) : gatewaysTable(rows));
    } finally {
      clearTimeout(timer);
    }
  },
};
