import type { Command } from 'commander';
import * as z from 'zod';
import { type ControlPlaneFlagSet, controlPlaneChart } from '../../core/values/controlPlaneChart.js';
import { acceptGoBools, addBoolFlag } from '../flags/boolFlags.js';
import { addHelmValueFlags, HelmValueOptions, OutputOption } from '../flags/helmValues.js';
import { addValueFlags, readSetFlags } from '../flags/valueFlags.js';
import { resolveGlobals } from '../globals.js';
import { setExamples } from '../help/cobraHelp.js';
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

export function register(program: Command): Command {
  const cmd = program.command('upgrade').summary('Output Kubernetes configs to upgrade an existing Linkerd control plane').description(LONG);
  setExamples(cmd, EXAMPLES);
  addValueFlags(cmd, controlPlaneChart, FLAG_SETS);
  addHelmValueFlags(cmd);
  addBoolFlag(cmd, '--crds', 'Upgrade Linkerd CRDs', { default: false });
  addBoolFlag(cmd, '--force', 'Force upgrade operation even when issuer certificate does not work with the trust anchors of all proxies', { default: false });
  cmd
    .option('--from-manifests <file>', 'Read config from a Linkerd install YAML rather than from Kubernetes (a file, a URL, or - for standard input)')
    .option('-o, --output <format>', 'Output format. One of: json|yaml', 'yaml');
  acceptGoBools(cmd);

  return cmd.action(async (flags: unknown) => {
    const opts = UpgradeOptions.parse(flags);
    const globals = resolveGlobals(program);
    const format = manifestFormat(opts.output);
    const { renderUpgrade } = await import('../../core/install/index.js');
    const result = await renderUpgrade({
      namespace: globals.linkerdNamespace,
      cluster: globals,
      crds: opts.crds,
      fromManifests: opts.fromManifests,
      force: opts.force,
      flags: readSetFlags(cmd, controlPlaneChart, FLAG_SETS),
      valuesFiles: opts.values,
      set: opts.set,
      setString: opts.setString,
      setFile: opts.setFile,
    });
    const manifest = renderManifest(result.objects, format);
    process.stderr.write(notesText(result.notes));
    process.stdout.write(manifest);
  });
}
