import type { Command } from 'commander';
import * as z from 'zod';
import { UserError } from '../../core/errors.js';
import { checkSecretFileTarget, writeSecretFile } from '../../core/files/writeSecretFile.js';
import { type ControlPlaneFlagSet, controlPlaneChart } from '../../core/values/controlPlaneChart.js';
import { acceptGoBools } from '../flags/boolFlags.js';
import { addHelmValueFlags, HelmValueOptions } from '../flags/helmValues.js';
import { addValueFlags, readSetFlags } from '../flags/valueFlags.js';
import { resolveGlobals } from '../globals.js';
import { setExamples } from '../help/cobraHelp.js';
import { manifestFormat, renderManifest } from '../output/manifest.js';
import { notesText } from '../output/sanitize.js';

const FLAG_SETS: readonly ControlPlaneFlagSet[] = ['installOnly', 'installUpgrade', 'proxy'];

/** install's own flags as commander hands them over (the values flags are read by readSetFlags). */
const InstallOptionsSchema = HelmValueOptions.extend({
  crds: z.boolean(),
  ignoreCluster: z.boolean(),
  output: z.string(),
  identityTrustAnchorKeyOut: z.string().optional(),
  force: z.boolean(),
  identityAnchorValidity: z.string(),
  identityIssuerValidity: z.string(),
});

export function register(program: Command): Command {
  const cmd = program.command('install').description('Output Kubernetes configs to install Linkerd');
  setExamples(
    cmd,
    '  # Install CRDs first.\n  linkerd install --crds | kubectl apply -f -\n\n  # Install the core control plane.\n  linkerd install | kubectl apply -f -',
  );
  addValueFlags(cmd, controlPlaneChart, FLAG_SETS);
  addHelmValueFlags(cmd)
    .option('--crds', 'Install Linkerd CRDs', false)
    .option('--ignore-cluster', 'Ignore the current Kubernetes cluster when checking for existing cluster configuration (default false)', false)
    .option('-o, --output <format>', 'Output format. One of: json|yaml', 'yaml')
    .option('--identity-trust-anchor-key-out <file>', 'Write the generated trust anchor private key to this new file (mode 0600), to issue new issuers later')
    .option('--force', 'With --identity-trust-anchor-key-out: replace an existing file (atomically, never writing through it)', false)
    .option('--identity-anchor-validity <duration>', 'Validity of a generated trust anchor', '8760h')
    .option('--identity-issuer-validity <duration>', 'Validity of a generated issuer certificate', '8760h');
  acceptGoBools(cmd);

  return cmd.action(async (flags: unknown) => {
    const opts = InstallOptionsSchema.parse(flags);
    const globals = resolveGlobals(program);
    const format = manifestFormat(opts.output);
    const keyOut = opts.identityTrustAnchorKeyOut;
    const keyFile = { force: opts.force, label: '--identity-trust-anchor-key-out', forceFlag: '--force' };
    if (keyOut !== undefined) {
      if (opts.crds) throw new UserError('--identity-trust-anchor-key-out cannot be used with --crds: the CRDs have no trust anchor');
      checkSecretFileTarget(keyOut, keyFile);
    }
    const { renderInstall } = await import('../../core/install/index.js');
    const result = await renderInstall({
      namespace: globals.linkerdNamespace,
      cluster: opts.ignoreCluster ? undefined : globals,
      crds: opts.crds,
      flags: readSetFlags(cmd, controlPlaneChart, FLAG_SETS),
      valuesFiles: opts.values,
      set: opts.set,
      setString: opts.setString,
      setFile: opts.setFile,
      anchorValidity: opts.identityAnchorValidity,
      issuerValidity: opts.identityIssuerValidity,
      wantTrustAnchorKey: keyOut !== undefined,
    });
    const manifest = renderManifest(result.objects, format);
    if (keyOut !== undefined && result.trustAnchorKeyPem) writeSecretFile(keyOut, result.trustAnchorKeyPem, keyFile);
    process.stderr.write(notesText(result.notes));
    process.stdout.write(manifest);
  });
}
