import type { Command } from 'commander';
import { z } from 'zod';
import { addValueFlags, flagsOf, normalizeBoolFlagArgs, readSetFlags, type FlagGroup } from '../../core/values/flags.js';
import { resolveGlobals } from '../globals.js';
import { manifestFormat, renderManifest } from '../output/manifest.js';
import { addHelmValueFlags, HelmValueOptions, OutputOption } from '../valueOptions.js';

const GROUPS: FlagGroup[] = ['B', 'C'];

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
Examples:
  # Upgrade CRDs first
  linkerd upgrade --crds | kubectl apply -f -

  # Then upgrade the control plane
  linkerd upgrade | kubectl apply -f -

  # Render offline from the manifest of an earlier install
  linkerd upgrade --from-manifests linkerd.yaml > upgrade.yaml`;

export function register(program: Command): Command {
  const cmd = program.command('upgrade').summary('Output Kubernetes configs to upgrade an existing Linkerd control plane').description(LONG).addHelpText('after', EXAMPLES);
  addValueFlags(cmd, GROUPS);
  addHelmValueFlags(cmd)
    .option('--crds', 'Upgrade Linkerd CRDs', false)
    .option('--from-manifests <file>', 'Read config from a Linkerd install YAML rather than from Kubernetes (a file, a URL, or - for standard input)')
    .option('--force', 'Force upgrade operation even when issuer certificate does not work with the trust anchors of all proxies', false)
    .option('-o, --output <format>', 'Output format. One of: json|yaml', 'yaml');
  // pflag accepts `--force=false`; commander booleans take no value, so rewrite those forms first.
  const parseOptions = cmd.parseOptions.bind(cmd);
  cmd.parseOptions = (argv: string[]) => parseOptions(normalizeBoolFlagArgs(argv, flagsOf(GROUPS)));

  return cmd.action(async (raw: unknown) => {
    const globals = resolveGlobals(program);
    const opts = UpgradeOptions.parse(raw);
    const format = manifestFormat(opts.output);
    const { renderUpgrade } = await import('../../core/install/index.js');
    const result = await renderUpgrade({
      namespace: globals.linkerdNamespace,
      cluster: globals,
      crds: opts.crds,
      fromManifests: opts.fromManifests,
      force: opts.force,
      flags: readSetFlags(cmd, GROUPS),
      valuesFiles: opts.values,
      set: opts.set,
      setString: opts.setString,
      setFile: opts.setFile,
    });
    const manifest = renderManifest(result.objects, format);
    for (const line of result.notes) process.stderr.write(`${line}\n`);
    process.stdout.write(manifest);
  });
}
