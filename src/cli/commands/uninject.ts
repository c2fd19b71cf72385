import * as z from 'zod';
import type { CommandBody } from '../kit/command.js';
import { manifestFormat } from '../output/manifest.js';

const EXAMPLES = `
  # Remove the proxy from a manifest produced by 'linkerd inject --manual'.
  linkerd uninject meshed.yaml > plain.yaml

  # Un-mesh every deployment of the default namespace.
  kubectl get deploy -o yaml | linkerd uninject - | kubectl apply -f -`;

const UninjectOptionsSchema = z.object({ output: z.string().optional() });

export const command: CommandBody = {
  args: [{ name: 'CONFIG-FILE', help: 'manifests to uninject', variadic: true }],
  flags: [{ name: 'output', short: 'o', type: 'string', help: 'Output format, one of: json|yaml (default: the format of the input)' }],
  examples: EXAMPLES,
  run: async ({ args, flags, io }) => {
    const opts = UninjectOptionsSchema.parse(flags);
    const { runUninject } = await import('../../core/inject/index.js');
    const { printTransform, uninjectText } = await import('../output/inject.js');
    const result = await runUninject({ inputs: args[0] as string[], output: opts.output === undefined ? 'auto' : manifestFormat(opts.output) });
    return printTransform(result, uninjectText(result), io.stdout, io.stderr);
  },
};
