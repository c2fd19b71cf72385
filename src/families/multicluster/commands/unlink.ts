import * as z from 'zod';
import type { CommandSpec } from '../../../cli/kit/command.js';
import { manifestFormat } from '../../../cli/output/manifest.js';
import { UserError } from '../../../core/errors.js';

const Options = z.object({ namespace: z.string(), clusterName: z.string(), onlyController: z.boolean(), output: z.string() });

/** The deprecated `unlink`: name-only stubs of what `link` made for one cluster, for `kubectl delete`. */
export const unlinkCommand: CommandSpec = {
  name: 'unlink',
  summary: 'Outputs link resources for deletion',
  deprecated:
    "only use for removing service mirror resources created by the (also deprecated) 'linkerd multicluster link' command (Linkerd 2.17 and earlier), using the flag --only-controller",
  examples: '  # To remove a link\n  linkerd multicluster unlink --cluster-name east | kubectl delete -f -',
  flags: [
    { name: 'namespace', type: 'string', default: 'linkerd-multicluster', help: 'The namespace for the service account' },
    { name: 'cluster-name', type: 'string', default: '', help: 'Cluster name' },
    {
      name: 'only-controller',
      type: 'bool',
      default: false,
      help: 'Only output the service-mirror controller and related resources. Leave out Link CR, credentials, Lease and mirror services.',
    },
    { name: 'output', short: 'o', type: 'string', default: 'yaml', help: 'Output format. One of: json|yaml' },
  ],
  run: async ({ flags, globals, io }) => {
    const opts = Options.parse(flags);
    const format = manifestFormat(opts.output, (f) => `unsupported format: ${f}`);
    if (!opts.clusterName) throw new UserError('you need to specify cluster name');
    const [{ withCluster }, { unlinkStubs }] = await Promise.all([import('../cluster.js'), import('../unlinkStubs.js')]);
    const stubs = await withCluster(globals, (c) =>
      unlinkStubs(c, {
        clusterName: opts.clusterName,
        namespace: opts.namespace,
        linkerdNamespace: globals.linkerdNamespace,
        onlyController: opts.onlyController,
      }),
    );
    const { renderStubs } = await import('../../../cli/output/stubs.js');
    io.stdout.write(renderStubs(stubs, format));
  },
};
