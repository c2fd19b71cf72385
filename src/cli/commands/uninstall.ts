import * as z from 'zod';
import { OutputOption } from '../flags/helmValues.js';
import type { CommandBody } from '../kit/command.js';
import { manifestFormat } from '../output/manifest.js';
import { renderStubs } from '../output/stubs.js';
import { notesText } from '../output/sanitize.js';

const UninstallOptions = OutputOption.extend({ force: z.boolean() });

const LONG = `Output Kubernetes resources to uninstall Linkerd control plane.

This command provides all Kubernetes namespace-scoped and cluster-scoped resources (e.g services, deployments, RBACs, etc.) necessary to uninstall Linkerd control plane.`;

export const command: CommandBody = {
  long: LONG,
  examples: '  linkerd uninstall | kubectl delete -f -',
  flags: [
    { name: 'output', short: 'o', type: 'string', default: 'yaml', help: 'Output format. One of: json|yaml' },
    { name: 'force', short: 'f', type: 'bool', default: false, help: 'Force uninstall even if there exist non-control-plane injected pods' },
  ],
  run: async ({ flags, globals, io }) => {
    const opts = UninstallOptions.parse(flags);
    const format = manifestFormat(opts.output);
    const { uninstall } = await import('../../core/lifecycle/index.js');
    const result = await uninstall({ namespace: globals.linkerdNamespace, cluster: globals, force: opts.force });
    io.stderr.write(notesText(result.notes));
    io.stdout.write(renderStubs(result.objects, format));
  },
};
