import * as z from 'zod';
import type { CommandSpec } from '../../../cli/kit/command.js';
import { manifestFormat, renderManifest } from '../../../cli/output/manifest.js';
import { UserError } from '../../../core/errors.js';
import { LINKERD_VERSION } from '../../../core/version.js';

const Options = z.object({ namespace: z.string(), ignoreCluster: z.boolean(), serviceAccountName: z.string(), output: z.string() });

export const allowCommand: CommandSpec = {
  name: 'allow',
  summary: 'Outputs credential resources that allow service-mirror controllers to connect to this cluster',
  flags: [
    { name: 'namespace', type: 'string', default: 'linkerd-multicluster', help: 'The destination namespace for the service account.' },
    { name: 'ignore-cluster', type: 'bool', default: false, help: 'Ignore cluster configuration' },
    { name: 'service-account-name', type: 'string', default: '', help: 'The name of the multicluster access service account' },
    { name: 'output', short: 'o', type: 'string', default: 'yaml', help: 'Output format. One of: json|yaml' },
  ],
  run: async ({ flags, globals, io }) => {
    const opts = Options.parse(flags);
    const format = manifestFormat(opts.output, (f) => `unsupported format ${f}`);
    if (!opts.namespace) throw new UserError('you need to specify a namespace');
    if (!opts.serviceAccountName) throw new UserError('you need to specify a service account name');
    if (!opts.ignoreCluster) {
      const { withCluster } = await import('../cluster.js');
      const existing = await withCluster(globals, (c) => c.find('serviceaccounts', opts.serviceAccountName, opts.namespace));
      if (existing) throw new UserError(`Service account with name ${opts.serviceAccountName} already exists, use --ignore-cluster for force operation`);
    }
    const { allowObjects } = await import('../chart/allow.js');
    io.stdout.write(renderManifest(allowObjects({ namespace: opts.namespace, serviceAccountName: opts.serviceAccountName, version: LINKERD_VERSION }), format));
  },
};
