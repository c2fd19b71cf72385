import * as z from 'zod';
import { type ControlPlaneFlagSet, controlPlaneChart } from '../../core/values/controlPlaneChart.js';
import { addHelmValueFlags, HelmValueOptions, OutputOption } from '../flags/helmValues.js';
import { addValueFlags, readSetFlags } from '../flags/valueFlags.js';
import type { CommandBody } from '../kit/command.js';
import { manifestFormat, renderManifest } from '../output/manifest.js';
import { notesText } from '../output/sanitize.js';

const FLAG_SETS: readonly ControlPlaneFlagSet[] = ['installUpgrade', 'proxy'];

/** upgrade's own flags as commander hands them over (the values flags are read by readSetFlags). */
const UpgradeOptions = HelmValueOptions.extend(OutputOption.shape).extend({
  crds: z.boolean(),
  force: z.boolean(),
  fromManifests: z.string().optional(),
});

const LONG = `Output Kubernetes configs to upgrade an existing Linkerd control plane.

Note that the default flag values for this command come from the Linkerd control
plane. The default values displayed in the Flags section below only apply to the
install command.`;

const EXAMPLES = `
  # Upgrade CRDs first
  linkerd upgrade --crds | kubectl apply -f -

  # Then upgrade the control plane
  linkerd upgrade | kubectl apply -f -

  # Render offline from the manifest of an earlier install
  linkerd upgrade --from-manifests linkerd.yaml > upgrade.yaml`;

export const command: CommandBody = {
  long: LONG,
  examples: EXAMPLES,
  configure: (cmd) => {
    addValueFlags(cmd, controlPlaneChart, FLAG_SETS);
    addHelmValueFlags(cmd);
  },
  flags: [
    { name: 'crds', type: 'bool', default: false, help: 'Upgrade Linkerd CRDs' },
    {
      name: 'force',
      type: 'bool',
      default: false,
      help: 'Force upgrade operation even when issuer certificate does not work with the trust anchors of all proxies',
    },
    {
      name: 'from-manifests',
      type: 'string',
      help: 'Read config from a Linkerd install YAML rather than from Kubernetes (a file, a URL, or - for standard input)',
    },
    { name: 'output', short: 'o', type: 'string', default: 'yaml', help: 'Output format. One of: json|yaml' },
  ],
  run: async ({ flags, globals, io, command: cmd }) => {
    const opts = UpgradeOptions.parse(flags);
    const format = manifestFormat(opts.output);
    const { renderUpgrade } = await import('../../core/install/index.js');
    const result = await renderUpgrade({
      namespace: globals.linkerdNamespace,
      cluster: globals,
      crds: opts.crds,
      fromManifests: opts.fromManifests,
      force: opts.force,
      flags: readSetFlags(cmd, controlPlaneChart, FLAG_SETS, io.env),
      valuesFiles: opts.values,
      set: opts.set,
      setString: opts.setString,
      setFile: opts.setFile,
    });
    const manifest = renderManifest(result.objects, format);
    io.stderr.write(notesText(result.notes));
    io.stdout.write(manifest);
  },
};
