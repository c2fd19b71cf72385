import * as z from 'zod';
import type { CommandBody } from '../../../cli/kit/command.js';
import { vizManifest } from './shared.js';

const Options = z.object({ namespace: z.string(), output: z.string() });

export const command: CommandBody = {
  long: 'Output Kubernetes resources to authorize Prometheus scrapes in a namespace or cluster with config.linkerd.io/default-inbound-policy: deny.',
  examples: "# Allow scrapes in the 'emojivoto' namespace\nlinkerd viz allow-scrapes --namespace emojivoto | kubectl apply -f -",
  flags: [
    {
      name: 'namespace',
      short: 'n',
      type: 'string',
      required: true,
      help: 'The namespace in which to authorize Prometheus scrapes.',
      completion: 'namespaces',
    },
    { name: 'output', short: 'o', type: 'string', default: 'yaml', help: 'Output format. One of: json|yaml' },
  ],
  run: async ({ flags, io }) => {
    // --namespace is required (the kit refuses to run without it, in cobra's words).
    const opts = Options.parse(flags);
    const { allowScrapesObjects } = await import('../allowScrapes.js');
    const text = vizManifest(allowScrapesObjects(opts.namespace), opts.output);
    // The real command prints its YAML without a final newline.
    io.stdout.write(opts.output === 'yaml' ? text.replace(/\n$/, '') : text);
  },
};
