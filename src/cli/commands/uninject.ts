import type { Command } from 'commander';
import * as z from 'zod';
import { setExamples } from '../help/cobraHelp.js';
import { manifestFormat } from '../output/manifest.js';

const EXAMPLES = `
  # Remove the proxy from a manifest produced by 'linkerd inject --manual'.
  linkerd uninject meshed.yaml > plain.yaml

  # Un-mesh every deployment of the default namespace.
  kubectl get deploy -o yaml | linkerd uninject - | kubectl apply -f -`;

const UninjectOptionsSchema = z.object({ output: z.string().optional() });

export function register(program: Command): Command {
  const cmd = program
    .command('uninject')
    .description('Remove the Linkerd proxy from a Kubernetes config: files, directories, https:// URLs or - (stdin)')
    .argument('[CONFIG-FILE...]', 'manifests to uninject')
    .option('-o, --output <format>', 'Output format, one of: json|yaml (default: the format of the input)');
  setExamples(cmd, EXAMPLES);
  return cmd.action(async (files: string[], flags: unknown) => {
    const opts = UninjectOptionsSchema.parse(flags);
    const { runUninject } = await import('../../core/inject/index.js');
    const { printTransform, uninjectText } = await import('../output/inject.js');
    const result = await runUninject({ inputs: files, output: opts.output === undefined ? 'auto' : manifestFormat(opts.output) });
    process.exitCode = await printTransform(result, uninjectText(result), process.stdout, process.stderr);
  });
}
