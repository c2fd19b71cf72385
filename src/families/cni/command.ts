import { addHelmValueFlags, HelmValueOptions, OutputOption } from '../../cli/flags/helmValues.js';
import { addValueFlags, readSetFlags } from '../../cli/flags/valueFlags.js';
import type { CommandBody } from '../../cli/kit/command.js';
import { manifestFormat, renderManifest } from '../../cli/output/manifest.js';
import { cniChart, type CniFlagSet } from './chart/chart.js';

const FLAG_SETS: readonly CniFlagSet[] = ['install'];

const Options = HelmValueOptions.extend(OutputOption.shape);

export const command: CommandBody = {
  long: `Output Kubernetes configs to install Linkerd CNI.

This command installs a DaemonSet into the Linkerd control plane. The DaemonSet
copies the necessary linkerd-cni plugin binaries and configs onto the host. It
assumes that the 'linkerd install' command will be executed with the
'--linkerd-cni-enabled' flag. This command needs to be executed before the
'linkerd install --linkerd-cni-enabled' command.

The installation can be configured by using the --set, --values, --set-string and --set-file flags.
A full list of configurable values can be found at https://artifacthub.io/packages/helm/linkerd2/linkerd2-cni#values`,
  examples: `  # Default install.
  linkerd install-cni | kubectl apply -f -

  # Nodes that keep their CNI configuration elsewhere (k3s).
  linkerd install-cni --dest-cni-net-dir /var/lib/rancher/k3s/agent/etc/cni/net.d --dest-cni-bin-dir /var/lib/rancher/k3s/data/cni | kubectl apply -f -`,
  configure: (cmd) => {
    addValueFlags(cmd, cniChart, FLAG_SETS);
    addHelmValueFlags(cmd);
  },
  // The real command declares no Args: cobra accepts extra operands, and it ignores them.
  arity: 'any',
  flags: [{ name: 'output', short: 'o', type: 'string', default: 'yaml', help: 'Output format. One of: json|yaml' }],
  run: async ({ flags, io, command: cmd }) => {
    const opts = Options.parse(flags);
    const format = manifestFormat(opts.output);
    const { renderCniInstall } = await import('./install.js');
    const objects = await renderCniInstall({
      flags: readSetFlags(cmd, cniChart, FLAG_SETS, io.env),
      valuesFiles: opts.values,
      set: opts.set,
      setString: opts.setString,
      setFile: opts.setFile,
    });
    io.stdout.write(renderManifest(objects, format));
  },
};
