import type { Command } from 'commander';
import * as z from 'zod';
import { type ControlPlaneFlagSet, controlPlaneChart } from '../../core/values/controlPlaneChart.js';
import { acceptGoBools, addBoolFlag } from '../flags/boolFlags.js';
import { addValueFlags, readSetFlags } from '../flags/valueFlags.js';
import { resolveGlobals } from '../globals.js';
import { setExamples } from '../help/cobraHelp.js';
import { manifestFormat } from '../output/manifest.js';
import { painterFor } from '../output/terminal.js';

const FLAG_SETS: readonly ControlPlaneFlagSet[] = ['proxy', 'inject'];

/** inject's own flags as commander hands them over (the values flags are read by readSetFlags). */
const InjectOptionsSchema = z.object({
  manual: z.boolean(),
  ignoreCluster: z.boolean(),
  enableDebugSidecar: z.boolean(),
  closeWaitTimeout: z.string(),
  output: z.string().optional(),
  values: z.string().optional(),
  identityTrustAnchorsFile: z.string().optional(),
  linkerdCniEnabled: z.boolean().optional(),
});

const EXAMPLES = `
  # Annotate the workloads of a file for the proxy injector, and apply them.
  linkerd inject deploy.yaml | kubectl apply -f -

  # Write the full proxy spec for review or GitOps, from a saved linkerd-config (no cluster needed).
  linkerd inject --manual --values linkerd-config.yaml deploy.yaml > meshed.yaml

  # Every workload of the default namespace, re-applied with the proxy.
  kubectl get deploy -o yaml | linkerd inject - | kubectl apply -f -

  # A directory (recursively) or an https:// URL work too.
  linkerd inject ./manifests/ | kubectl apply -f -`;

export function register(program: Command): Command {
  const cmd = program
    .command('inject')
    .description('Add the Linkerd proxy to a Kubernetes config: files, directories, https:// URLs or - (stdin)')
    .argument('[CONFIG-FILE...]', 'manifests to inject');
  setExamples(cmd, EXAMPLES);
  addValueFlags(cmd, controlPlaneChart, FLAG_SETS);
  addBoolFlag(cmd, '--manual', 'Include the proxy sidecar container spec in the YAML output (the full spec, not just the annotation)', { default: false });
  addBoolFlag(cmd, '--ignore-cluster', 'Do not read the Linkerd configuration from the current cluster; use defaults and --values', { default: false });
  addBoolFlag(cmd, '--enable-debug-sidecar', 'Inject a debug sidecar for data plane debugging', { default: false });
  cmd
    .option('--close-wait-timeout <duration>', 'Sets nf_conntrack_tcp_timeout_close_wait', '0s')
    .option('-o, --output <format>', 'Output format, one of: json|yaml (default: the format of the input)')
    .option('--values <file>', "Chart values, or a saved linkerd-config ConfigMap, to use instead of the cluster's (implies --ignore-cluster)")
    .option('--identity-trust-anchors-file <file>', "PEM trust anchors for --manual (instead of those in the cluster's linkerd-config)");
  addBoolFlag(cmd, '--linkerd-cni-enabled', "With --manual, use the linkerd-cni plugin's network validator instead of proxy-init");
  acceptGoBools(cmd);

  return cmd.action(async (files: string[], flags: unknown) => {
    const opts = InjectOptionsSchema.parse(flags);
    const globals = resolveGlobals(program);
    const paint = await painterFor(process.stderr);
    const { runInject } = await import('../../core/inject/index.js');
    const { injectText, printTransform } = await import('../output/inject.js');
    const result = await runInject({
      inputs: files,
      manual: opts.manual,
      output: opts.output === undefined ? 'auto' : manifestFormat(opts.output),
      flags: readSetFlags(cmd, controlPlaneChart, FLAG_SETS),
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
  });
}
