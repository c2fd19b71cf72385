import * as z from 'zod';
import { UserError } from '../../core/errors.js';
import { checkSecretFileTarget, writeSecretFile } from '../../core/files/writeSecretFile.js';
import { type ControlPlaneFlagSet, controlPlaneChart } from '../../core/values/controlPlaneChart.js';
import { addHelmValueFlags, HelmValueOptions } from '../flags/helmValues.js';
import { addValueFlags, readSetFlags } from '../flags/valueFlags.js';
import type { CommandBody } from '../kit/command.js';
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

export const command: CommandBody = {
  examples:
    '  # Install CRDs first.\n  linkerd install --crds | kubectl apply -f -\n\n  # Install the core control plane.\n  linkerd install | kubectl apply -f -',
  configure: (cmd) => {
    addValueFlags(cmd, controlPlaneChart, FLAG_SETS);
    addHelmValueFlags(cmd);
  },
  flags: [
    { name: 'crds', type: 'bool', default: false, help: 'Install Linkerd CRDs' },
    {
      name: 'ignore-cluster',
      type: 'bool',
      default: false,
      help: 'Ignore the current Kubernetes cluster when checking for existing cluster configuration (default false)',
    },
    { name: 'output', short: 'o', type: 'string', default: 'yaml', help: 'Output format. One of: json|yaml' },
    {
      name: 'identity-trust-anchor-key-out',
      type: 'string',
      help: 'Write the generated trust anchor private key to this new file (mode 0600), to issue new issuers later',
    },
    {
      name: 'force',
      type: 'bool',
      default: false,
      help: 'With --identity-trust-anchor-key-out: replace an existing file (atomically, never writing through it)',
    },
    { name: 'identity-anchor-validity', type: 'duration', default: '8760h', help: 'Validity of a generated trust anchor' },
    { name: 'identity-issuer-validity', type: 'duration', default: '8760h', help: 'Validity of a generated issuer certificate' },
  ],
  run: async ({ flags, globals, io, command: cmd }) => {
    const opts = InstallOptionsSchema.parse(flags);
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
      flags: readSetFlags(cmd, controlPlaneChart, FLAG_SETS, io.env),
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
    io.stderr.write(notesText(result.notes));
    io.stdout.write(manifest);
  },
};
