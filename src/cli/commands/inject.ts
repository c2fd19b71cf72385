import * as z from 'zod';
import { type ControlPlaneFlagSet, controlPlaneChart } from '../../core/values/controlPlaneChart.js';
import { addValueFlags, readSetFlags } from '../flags/valueFlags.js';
import type { CommandBody } from '../kit/command.js';
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

export const command: CommandBody = {
  args: [{ name: 'CONFIG-FILE', help: 'manifests to inject', variadic: true }],
  examples: EXAMPLES,
  configure: (cmd) => addValueFlags(cmd, controlPlaneChart, FLAG_SETS),
  flags: [
    {
      name: 'manual',
      type: 'bool',
      default: false,
      help: 'Include the proxy sidecar container spec in the YAML output (the full spec, not just the annotation)',
    },
    { name: 'ignore-cluster', type: 'bool', default: false, help: 'Do not read the Linkerd configuration from the current cluster; use defaults and --values' },
    { name: 'enable-debug-sidecar', type: 'bool', default: false, help: 'Inject a debug sidecar for data plane debugging' },
    { name: 'close-wait-timeout', type: 'duration', default: '0s', help: 'Sets nf_conntrack_tcp_timeout_close_wait' },
    { name: 'output', short: 'o', type: 'string', help: 'Output format, one of: json|yaml (default: the format of the input)' },
    { name: 'values', type: 'string', help: "Chart values, or a saved linkerd-config ConfigMap, to use instead of the cluster's (implies --ignore-cluster)" },
    { name: 'identity-trust-anchors-file', type: 'string', help: "PEM trust anchors for --manual (instead of those in the cluster's linkerd-config)" },
    { name: 'linkerd-cni-enabled', type: 'bool', help: "With --manual, use the linkerd-cni plugin's network validator instead of proxy-init" },
  ],
  run: async ({ args, flags, globals, io, command: cmd }) => {
    const opts = InjectOptionsSchema.parse(flags);
    const paint = await painterFor(io.stderr, io.env);
    const { runInject } = await import('../../core/inject/index.js');
    const { injectText, printTransform } = await import('../output/inject.js');
    const result = await runInject({
      inputs: args[0] as string[],
      manual: opts.manual,
      output: opts.output === undefined ? 'auto' : manifestFormat(opts.output),
      flags: readSetFlags(cmd, controlPlaneChart, FLAG_SETS, io.env),
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
    return printTransform(result, text, io.stdout, io.stderr);
  },
};
