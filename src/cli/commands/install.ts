import type { Command } from 'commander';
import { addValueFlags, flagsOf, normalizeBoolFlagArgs, readSetFlags, type FlagGroup } from '../../core/values/flags.js';
import { UserError } from '../../core/errors.js';
import { checkSecretFileTarget, writeSecretFile } from '../../core/files/writeSecretFile.js';
import { resolveGlobals } from '../globals.js';
import { manifestFormat, renderManifest } from '../output/manifest.js';
import { terminalText } from '../output/sanitize.js';

const GROUPS: FlagGroup[] = ['A', 'B', 'C'];
const collect = (v: string, prev: string[] = []) => [...prev, v];

interface InstallFlags {
  crds: boolean;
  ignoreCluster: boolean;
  output: string;
  values: string[];
  set: string[];
  setString: string[];
  setFile: string[];
  identityTrustAnchorKeyOut?: string;
  force: boolean;
  identityAnchorValidity: string;
  identityIssuerValidity: string;
}

export function register(program: Command): Command {
  const cmd = program
    .command('install')
    .description('Output Kubernetes configs to install Linkerd')
    .addHelpText(
      'after',
      '\nExamples:\n  # Install CRDs first.\n  linkerd install --crds | kubectl apply -f -\n\n  # Install the core control plane.\n  linkerd install | kubectl apply -f -',
    );
  addValueFlags(cmd, GROUPS);
  cmd
    .option('--crds', 'Install Linkerd CRDs', false)
    .option('--ignore-cluster', 'Ignore the current Kubernetes cluster when checking for existing cluster configuration (default false)', false)
    .option('-o, --output <format>', 'Output format. One of: json|yaml', 'yaml')
    .option('-f, --values <file>', 'Specify values in a YAML file or a URL, or - for standard input (can specify multiple)', collect, [])
    .option('--set <values>', 'Set values on the command line (can specify multiple or separate values with commas: key1=val1,key2=val2)', collect, [])
    .option('--set-string <values>', 'Set STRING values on the command line (can specify multiple or separate values with commas: key1=val1,key2=val2)', collect, [])
    .option('--set-file <values>', 'Set values from respective files specified via the command line (can specify multiple or separate values with commas: key1=path1,key2=path2)', collect, [])
    .option('--identity-trust-anchor-key-out <file>', 'Write the generated trust anchor private key to this new file (mode 0600), to issue new issuers later')
    .option('--force', 'With --identity-trust-anchor-key-out: replace an existing file (atomically, never writing through it)', false)
    .option('--identity-anchor-validity <duration>', 'Validity of a generated trust anchor', '8760h')
    .option('--identity-issuer-validity <duration>', 'Validity of a generated issuer certificate', '8760h');
  // pflag accepts `--ha=false`; commander booleans take no value, so rewrite those forms first.
  const parseOptions = cmd.parseOptions.bind(cmd);
  cmd.parseOptions = (argv: string[]) => parseOptions(normalizeBoolFlagArgs(argv, flagsOf(GROUPS)));

  return cmd.action(async (opts: InstallFlags) => {
    const globals = resolveGlobals(program);
    const format = manifestFormat(opts.output);
    const keyOut = opts.identityTrustAnchorKeyOut;
    const keyFile = { force: opts.force, label: '--identity-trust-anchor-key-out' };
    if (keyOut !== undefined) {
      if (opts.crds) throw new UserError('--identity-trust-anchor-key-out cannot be used with --crds: the CRDs have no trust anchor');
      checkSecretFileTarget(keyOut, keyFile);
    }
    const { renderInstall, isVerbatimError } = await import('../../core/install/index.js');
    try {
      const result = await renderInstall({
        namespace: globals.linkerdNamespace,
        cluster: opts.ignoreCluster ? undefined : globals,
        crds: opts.crds,
        flags: readSetFlags(cmd, GROUPS),
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
      for (const line of result.notes) process.stderr.write(`${terminalText(line)}\n`);
      process.stdout.write(manifest);
    } catch (e) {
      // The pre-checks print the real CLI's own text, without the `Error: ` prefix.
      if (!isVerbatimError(e)) throw e;
      process.stderr.write(terminalText(e.message));
      process.exitCode = e.exitCode;
    }
  });
}
