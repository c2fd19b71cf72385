import * as z from 'zod';
import { addHelmValueFlags, HelmValueOptions } from '../../../cli/flags/helmValues.js';
import { addValueFlags, readSetFlags } from '../../../cli/flags/valueFlags.js';
import { parseWait, WAIT_FLAG } from '../../../cli/flags/wait.js';
import type { CommandSpec } from '../../../cli/kit/command.js';
import { manifestFormat, renderManifest } from '../../../cli/output/manifest.js';
import { LINKERD_VERSION } from '../../../core/version.js';
import { multiclusterChart } from '../chart/chart.js';

const Options = HelmValueOptions.extend({ ha: z.boolean(), ignoreCluster: z.boolean(), wait: z.string(), output: z.string() });

export const install: CommandSpec = {
  name: 'install',
  summary: 'Output Kubernetes configs to install the Linkerd multicluster add-on',
  long: 'Output Kubernetes configs to install the Linkerd multicluster add-on.\n\nThis command provides all Kubernetes namespace-scoped and cluster-scoped resources (e.g services, deployments, RBACs, etc.) necessary to install the multicluster add-on.',
  examples:
    '  # Default install.\n  linkerd multicluster install | kubectl apply -f -\n\nThe installation can be configured by using the --set, --values, --set-string and --set-file flags.\nA full list of configurable values can be found at https://github.com/linkerd/linkerd2/blob/main/multicluster/charts/linkerd-multicluster/values.yaml',
  configure: (cmd) => {
    addValueFlags(cmd, multiclusterChart, ['install']);
    addHelmValueFlags(cmd);
  },
  flags: [
    { name: 'ha', type: 'bool', default: false, help: 'Install multicluster extension in High Availability mode.' },
    {
      name: 'ignore-cluster',
      type: 'bool',
      default: false,
      help: 'Ignore the current Kubernetes cluster when checking for existing cluster configuration (default false)',
    },
    WAIT_FLAG,
    { name: 'output', short: 'o', type: 'string', default: 'yaml', help: 'Output format. One of: json|yaml' },
  ],
  run: async ({ flags, globals, io, command: cmd }) => {
    const opts = Options.parse(flags);
    const format = manifestFormat(opts.output, (f) => `unsupported format ${f}`);
    const waitMs = parseWait(opts.wait);
    const setFlags = readSetFlags(cmd, multiclusterChart, ['install'], io.env);
    const [{ installValuesFromInputs }, { clusterFactsFrom }, { cliContext, renderMulticluster }] = await Promise.all([
      import('../chart/installValues.js'),
      import('../chart/clusterFacts.js'),
      import('../chart/render.js'),
    ]);
    let cluster;
    if (!opts.ignoreCluster) {
      // The real pre-check: kubernetes-api and linkerd-existence, retried until --wait; then linkerd-config.
      const { requireControlPlane } = await import('../../../core/check/requireControlPlane.js');
      const { values } = await requireControlPlane({
        namespace: globals.linkerdNamespace,
        cluster: globals,
        waitMs,
        env: io.env,
        onWaiting: () => io.stderr.write('Waiting for control plane to become available\n'),
      });
      cluster = clusterFactsFrom(values);
    }
    const values = await installValuesFromInputs(
      { version: LINKERD_VERSION, linkerdNamespace: globals.linkerdNamespace, ha: opts.ha, cluster, registry: io.env.LINKERD_DOCKER_REGISTRY },
      { flags: setFlags, valuesFiles: opts.values, set: opts.set, setString: opts.setString, setFile: opts.setFile },
    );
    io.stdout.write(renderManifest(renderMulticluster(values, cliContext()), format));
  },
};
