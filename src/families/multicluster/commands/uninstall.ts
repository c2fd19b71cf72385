import * as z from 'zod';
import type { CommandSpec } from '../../../cli/kit/command.js';
import { manifestFormat } from '../../../cli/output/manifest.js';
import { UserError } from '../../../core/errors.js';
import { isNotFound } from '../../../core/kube/kubeError.js';

const Options = z.object({ output: z.string() });

/** The extension's label values, the legacy one (before stable-2.10.0) included. */
const EXTENSION_SELECTOR = 'linkerd.io/extension in (linkerd-multicluster,multicluster)';

export const uninstallCommand: CommandSpec = {
  name: 'uninstall',
  summary: 'Output Kubernetes configs to uninstall the Linkerd multicluster add-on',
  long: 'Output Kubernetes configs to uninstall the Linkerd multicluster add-on.\n\nThis command provides all Kubernetes namespace-scoped and cluster-scoped resources (e.g services, deployments, RBACs, etc.) necessary to uninstall the Linkerd multicluster add-on.',
  examples: '  # Uninstall the multicluster add-on.\n  linkerd multicluster uninstall | kubectl delete -f -',
  flags: [{ name: 'output', short: 'o', type: 'string', default: 'yaml', help: 'Output format. One of: json|yaml' }],
  run: async ({ flags, globals, io }) => {
    const format = manifestFormat(Options.parse(flags).output, (f) => `unsupported format ${f}`);
    const [{ withCluster }, { uninstallObjects, NOTHING_TO_UNINSTALL }, { LINK_RESOURCE, storedLink }, { renderStubs }] = await Promise.all([
      import('../cluster.js'),
      import('../../../core/lifecycle/index.js'),
      import('../linkResource.js'),
      import('../../../cli/output/stubs.js'),
    ]);
    const objects = await withCluster(globals, async (client) => {
      // No Link CRD, no Links: NotFound is an answer here, as the real command takes it.
      const links = (
        await client.list(LINK_RESOURCE).catch((e: unknown) => {
          if (isNotFound(e)) return [];
          throw e;
        })
      ).map(storedLink);
      if (links.length > 0)
        throw new UserError(
          `Please unlink the following clusters before uninstalling multicluster:\n${links.map((l) => `  * ${l.targetClusterName}`).join('\n')}`,
        );
      return uninstallObjects(client, EXTENSION_SELECTOR);
    });
    if (objects.length === 0) throw new UserError(NOTHING_TO_UNINSTALL);
    io.stdout.write(renderStubs(objects, format));
  },
};
