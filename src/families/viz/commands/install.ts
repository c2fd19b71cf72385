import * as z from 'zod';
import { addHelmValueFlags, HelmValueOptions } from '../../../cli/flags/helmValues.js';
import { addValueFlags, readSetFlags } from '../../../cli/flags/valueFlags.js';
import type { CommandBody } from '../../../cli/kit/command.js';
import { parseWait, vizManifest, WAIT_FLAG } from './shared.js';
import { vizChart, type VizFlagSet } from '../chart/chart.js';

const FLAG_SETS: readonly VizFlagSet[] = ['install'];

const InstallOptions = HelmValueOptions.extend({ skipChecks: z.boolean(), ignoreCluster: z.boolean(), wait: z.string(), output: z.string() });

export const command: CommandBody = {
  long: 'Output Kubernetes resources to install linkerd-viz extension.',
  examples: `  # Default install.
  linkerd viz install | kubectl apply -f -

The installation can be configured by using the --set, --values, --set-string and --set-file flags.
A full list of configurable values can be found at https://www.github.com/linkerd/linkerd2/tree/main/viz/charts/linkerd-viz/README.md`,
  configure: (cmd) => {
    addValueFlags(cmd, vizChart, FLAG_SETS);
    addHelmValueFlags(cmd);
  },
  flags: [
    { name: 'skip-checks', type: 'bool', default: false, help: 'Skip checks for linkerd core control-plane existence' },
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
    const opts = InstallOptions.parse(flags);
    const waitMs = parseWait(opts.wait);
    const { renderVizInstall } = await import('../install.js');
    const objects = await renderVizInstall({
      linkerdNamespace: globals.linkerdNamespace,
      cluster: opts.skipChecks || opts.ignoreCluster ? undefined : globals,
      waitMs,
      inputs: {
        flags: readSetFlags(cmd, vizChart, FLAG_SETS, io.env),
        valuesFiles: opts.values,
        set: opts.set,
        setString: opts.setString,
        setFile: opts.setFile,
      },
      env: io.env,
      onWaiting: () => io.stderr.write('Waiting for control plane to become available\n'),
    });
    io.stdout.write(vizManifest(objects, opts.output));
  },
};
