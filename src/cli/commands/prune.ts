import { OutputOption } from '../flags/helmValues.js';
import type { CommandBody } from '../kit/command.js';
import { manifestFormat } from '../output/manifest.js';
import { renderStubs } from '../output/stubs.js';
import { notesText } from '../output/sanitize.js';

export const command: CommandBody = {
  examples: '  # Prune extraneous resources.\n  linkerd prune | kubectl delete -f -',
  flags: [{ name: 'output', short: 'o', type: 'string', default: 'yaml', help: 'Output format. One of: json|yaml' }],
  run: async ({ flags, globals, io }) => {
    const opts = OutputOption.parse(flags);
    const format = manifestFormat(opts.output);
    const { prune } = await import('../../core/lifecycle/index.js');
    const result = await prune({ namespace: globals.linkerdNamespace, cluster: globals });
    io.stderr.write(notesText(result.notes));
    io.stdout.write(renderStubs(result.objects, format));
  },
};
