import type { Command } from 'commander';
import { addValueFlags, flagsOf, normalizeBoolFlagArgs, readSetFlags, valueFlag, type FlagGroup, type ValueFlag } from '../../core/values/flags.js';
import { resolveGlobals } from '../globals.js';
import { manifestFormat } from '../output/manifest.js';
import { painterFor } from '../output/terminal.js';

const GROUPS: FlagGroup[] = ['C', 'D'];
const OWN_BOOLS = ['manual', 'ignore-cluster', 'enable-debug-sidecar', 'linkerd-cni-enabled'];

interface InjectFlags {
  manual: boolean;
  ignoreCluster: boolean;
  enableDebugSidecar: boolean;
  closeWaitTimeout: string;
  output?: string;
  values?: string;
  identityTrustAnchorsFile?: string;
  linkerdCniEnabled?: boolean;
}

const EXAMPLES = `
Examples:
  # Annotate the workloads of a file for the proxy injector, and apply them.
  linkerd inject deploy.yaml | kubectl apply -f -

  # Write the full proxy spec for review or GitOps, from a saved linkerd-config (no cluster needed).
  linkerd inject --manual --values linkerd-config.yaml deploy.yaml > meshed.yaml

  # Every workload of the default namespace, re-applied with the proxy.
  kubectl get deploy -o yaml | linkerd inject - | kubectl apply -f -

  # A directory (recursively) or an https:// URL work too.
  linkerd inject ./manifests/ | kubectl apply -f -`;

/** Booleans we declare ourselves also accept pflag's `--flag=false`. */
const boolFlags = (): ValueFlag[] => [
  ...flagsOf(GROUPS),
  ...OWN_BOOLS.map((name) => valueFlag(name) ?? ({ name, kind: 'bool' } as ValueFlag)),
];

export function register(program: Command): Command {
  const cmd = program
    .command('inject')
    .description('Add the Linkerd proxy to a Kubernetes config: files, directories, https:// URLs or - (stdin)')
    .argument('[CONFIG-FILE...]', 'manifests to inject')
    .addHelpText('after', EXAMPLES);
  addValueFlags(cmd, GROUPS);
  const bool = (flag: string, help: string) => {
    cmd.option(`--${flag}`, help, false);
    cmd.addOption(cmd.createOption(`--no-${flag}`).hideHelp());
  };
  bool('manual', 'Include the proxy sidecar container spec in the YAML output (the full spec, not just the annotation)');
  bool('ignore-cluster', 'Do not read the Linkerd configuration from the current cluster; use defaults and --values');
  bool('enable-debug-sidecar', 'Inject a debug sidecar for data plane debugging');
  cmd
    .option('--close-wait-timeout <duration>', 'Sets nf_conntrack_tcp_timeout_close_wait', '0s')
    .option('-o, --output <format>', 'Output format, one of: json|yaml (default: the format of the input)')
    .option('--values <file>', 'Chart values, or a saved linkerd-config ConfigMap, to use instead of the cluster\'s (implies --ignore-cluster)')
    .option('--identity-trust-anchors-file <file>', 'PEM trust anchors for --manual (instead of those in the cluster\'s linkerd-config)');
  cmd.option('--linkerd-cni-enabled', 'With --manual, use the linkerd-cni plugin\'s network validator instead of proxy-init');
  cmd.addOption(cmd.createOption('--no-linkerd-cni-enabled').hideHelp());
  // pflag accepts `--native-sidecar=false`; commander booleans take no value, so rewrite those forms.
  const parseOptions = cmd.parseOptions.bind(cmd);
  cmd.parseOptions = (argv: string[]) => parseOptions(normalizeBoolFlagArgs(argv, boolFlags()));

  return cmd.action(async (files: string[], opts: InjectFlags) => {
    const globals = resolveGlobals(program);
    const paint = await painterFor(process.stderr);
    const { runInject, isVerbatimError } = await import('../../core/inject/index.js');
    const { injectText, printTransform } = await import('../output/inject.js');
    try {
      const result = await runInject({
        inputs: files,
        manual: opts.manual,
        output: opts.output === undefined ? 'auto' : manifestFormat(opts.output),
        flags: readSetFlags(cmd, GROUPS),
        debugSidecar: opts.enableDebugSidecar,
        closeWaitTimeout: opts.closeWaitTimeout,
        base: {
          ignoreCluster: opts.ignoreCluster,
          controlPlaneNamespace: globals.linkerdNamespace,
          kube: globals,
          valuesFile: opts.values,
          trustAnchorsFile: opts.identityTrustAnchorsFile,
          cniEnabled: cmd.getOptionValueSource('linkerdCniEnabled') === 'cli' ? Boolean(opts.linkerdCniEnabled) : undefined,
        },
      });
      const text = injectText(result, { verbose: globals.verbose, glyphs: { ok: paint.green('√'), warn: paint.yellow('‼') } });
      process.exitCode = await printTransform(result, text, process.stdout, process.stderr);
    } catch (e) {
      // linkerd's cluster pre-checks print their own text, without the `Error: ` prefix.
      if (!isVerbatimError(e)) throw e;
      process.stderr.write(e.text);
      process.exitCode = e.exitCode;
    }
  });
}
