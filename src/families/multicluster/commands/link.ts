import * as z from 'zod';
import { addHelmValueFlags, HelmValueOptions } from '../../../cli/flags/helmValues.js';
import type { CommandSpec } from '../../../cli/kit/command.js';
import { manifestFormat, renderManifest } from '../../../cli/output/manifest.js';
import { readTextFileBounded } from '../../../core/input/boundedRead.js';
import { VALUES_LIMIT } from '../../../core/input/limits.js';
import { asInt } from '../../../core/values/flagValues.js';
import { LINKERD_VERSION } from '../../../core/version.js';
import { LINK_LONG } from './linkGen.js';
import { LINK_GEN_FLAGS, linkGenFlagOptions } from './linkFlags.js';

const Own = HelmValueOptions.extend({
  controlPlaneVersion: z.string(),
  serviceMirrorRetryLimit: z.union([z.string(), z.number()]),
  logLevel: z.string(),
  logFormat: z.string(),
  registry: z.string(),
  ha: z.boolean(),
});

/** The deprecated `link`: link-gen's output plus a service mirror from the linkerd-multicluster-link chart. */
export const linkCommand: CommandSpec = {
  name: 'link',
  summary: 'Outputs resources that allow another cluster to mirror services from this one',
  deprecated: 'please use `multicluster link-gen` instead.',
  long: LINK_LONG,
  examples: '  # To link the west cluster to east\n  linkerd --context=east multicluster link --cluster-name east | kubectl --context=west apply -f -',
  configure: (cmd) => void addHelmValueFlags(cmd),
  flags: [
    ...LINK_GEN_FLAGS,
    { name: 'control-plane-version', type: 'string', default: LINKERD_VERSION, help: '(Development) Tag to be used for the service mirror controller image' },
    {
      name: 'service-mirror-retry-limit',
      type: 'int',
      default: 3,
      help: 'The number of times a failed update from the target cluster is allowed to be retried',
    },
    { name: 'log-level', type: 'string', default: 'info', help: 'Log level for the Multicluster components' },
    { name: 'log-format', type: 'string', default: 'plain', help: 'Log format for the Multicluster components' },
    {
      name: 'registry',
      type: 'string',
      default: 'cr.l5d.io/linkerd',
      help: 'Docker registry to pull service mirror controller image from ($LINKERD_DOCKER_REGISTRY)',
    },
    { name: 'ha', type: 'bool', default: false, help: 'Enable HA configuration for the service-mirror deployment (default false)' },
  ],
  run: async ({ flags, globals, io, command: cmd }) => {
    const { options, output } = linkGenFlagOptions(flags, globals.linkerdNamespace, LINKERD_VERSION);
    const format = manifestFormat(output, (f) => `output format ${f} not supported`);
    const own = Own.parse(flags);
    // `$LINKERD_DOCKER_REGISTRY` stands in for an unset --registry.
    const registry = cmd.getOptionValueSource('registry') === 'cli' ? own.registry : io.env.LINKERD_DOCKER_REGISTRY || own.registry;
    const [{ assertClusterName }, { deprecatedLinkOutput }, { readLinkGenTarget, targetKubeconfig }, { withCluster }, { readValuesFiles }] = await Promise.all([
      import('../link/linkGen.js'),
      import('../link/deprecatedLink.js'),
      import('../link/targetReads.js'),
      import('../cluster.js'),
      import('../../../core/values/valuesFiles.js'),
    ]);
    assertClusterName(options, 'link');
    const valuesFiles = await readValuesFiles(own.values);
    const kubeconfig = await targetKubeconfig(globals, io.env);
    const reads = await withCluster(globals, (c) => readLinkGenTarget(c, kubeconfig, options));
    const objects = deprecatedLinkOutput(
      reads,
      options,
      {
        controlPlaneVersion: own.controlPlaneVersion,
        serviceMirrorRetryLimit: asInt({ name: 'service-mirror-retry-limit', unsigned: true }, String(own.serviceMirrorRetryLimit)),
        logLevel: own.logLevel,
        logFormat: own.logFormat,
        registry,
        ha: own.ha,
      },
      { valuesFiles, set: own.set, setString: own.setString, setFile: own.setFile, readFile: (p) => readTextFileBounded(p, VALUES_LIMIT) },
    );
    io.stdout.write(renderManifest(objects, format));
  },
};
