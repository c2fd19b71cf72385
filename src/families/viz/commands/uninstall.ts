import { OutputOption } from '../../../cli/flags/helmValues.js';
import type { CommandBody } from '../../../cli/kit/command.js';
import { renderStubs } from '../../../cli/output/stubs.js';
import { notesText } from '../../../cli/output/sanitize.js';
import { stubFormat } from './shared.js';

export const command: CommandBody = {
  long: 'Output Kubernetes resources to uninstall the linkerd-viz extension.\n\nThis command provides all Kubernetes namespace-scoped and cluster-scoped resources (e.g services, deployments, RBACs, etc.) necessary to uninstall the Linkerd-viz extension.',
  examples: '  # Uninstall linkerd-viz\n  linkerd viz uninstall | kubectl delete -f -',
  flags: [{ name: 'output', short: 'o', type: 'string', default: 'yaml', help: 'Output format. One of: json|yaml' }],
  run: async ({ flags, globals, io }) => {
    const format = stubFormat(OutputOption.parse(flags).output);
    const { vizUninstall } = await import('../lifecycle.js');
    const result = await vizUninstall(globals, io.env);
    io.stderr.write(notesText(result.notes));
    io.stdout.write(renderStubs(result.objects, format));
  },
};
