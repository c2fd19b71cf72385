import type { CommandSpec } from '../../../cli/kit/command.js';
import { manifestFormat, renderManifest } from '../../../cli/output/manifest.js';
import { LINKERD_VERSION } from '../../../core/version.js';
import { LINK_GEN_FLAGS, linkGenFlagOptions } from './linkFlags.js';

export const LINK_LONG =
  'Outputs a Link manifest and credentials for another cluster to mirror services from this one.\n\nNote that the Link resource applies only in one direction. In order for two clusters to mirror each other, a Link resource will have to be generated for each cluster and applied to the other.';

export const linkGenCommand: CommandSpec = {
  name: 'link-gen',
  summary: 'Outputs a Link manifest and credentials for another cluster to mirror services from this one',
  long: LINK_LONG,
  examples: '  # To link the west cluster to east\n  linkerd --context=east multicluster link-gen --cluster-name east | kubectl --context=west apply -f -',
  flags: LINK_GEN_FLAGS,
  run: async ({ flags, globals, io }) => {
    const { options, output } = linkGenFlagOptions(flags, globals.linkerdNamespace, LINKERD_VERSION);
    const format = manifestFormat(output, (f) => `output format ${f} not supported`);
    const [{ assertClusterName, linkGen }, { readLinkGenTarget, targetKubeconfig }, { withCluster }] = await Promise.all([
      import('../link/linkGen.js'),
      import('../link/targetReads.js'),
      import('../cluster.js'),
    ]);
    assertClusterName(options);
    const kubeconfig = await targetKubeconfig(globals, io.env);
    const reads = await withCluster(globals, (c) => readLinkGenTarget(c, kubeconfig, options));
    io.stdout.write(renderManifest(linkGen(reads, options), format));
  },
};
