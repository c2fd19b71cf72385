import type { Command } from 'commander';
import * as z from 'zod';
import { acceptGoBools, addBoolFlag } from '../flags/boolFlags.js';
import { OutputOption } from '../flags/helmValues.js';
import { resolveGlobals } from '../globals.js';
import { setExamples } from '../help/cobraHelp.js';
import { manifestFormat } from '../output/manifest.js';
import { renderStubs } from '../output/stubs.js';
import { notesText } from '../output/sanitize.js';

const UninstallOptions = OutputOption.extend({ force: z.boolean() });

const LONG = `Output Kubernetes resources to uninstall Linkerd control plane.

This command provides all Kubernetes namespace-scoped and cluster-scoped resources (e.g services, deployments, RBACs, etc.) necessary to uninstall Linkerd control plane.`;

export function register(program: Command): Command {
  const cmd = program
    .command('uninstall')
    .summary('Output Kubernetes resources to uninstall Linkerd control plane')
    .description(LONG)
    .option('-o, --output <format>', 'Output format. One of: json|yaml', 'yaml');
  setExamples(cmd, '  linkerd uninstall | kubectl delete -f -');
  addBoolFlag(cmd, '-f, --force', 'Force uninstall even if there exist non-control-plane injected pods', { default: false });
  acceptGoBools(cmd);
  return cmd.action(async (flags: unknown) => {
    const opts = UninstallOptions.parse(flags);
    const globals = resolveGlobals(program);
    const format = manifestFormat(opts.output);
    const { uninstall } = await import('../../core/lifecycle/index.js');
    const result = await uninstall({ namespace: globals.linkerdNamespace, cluster: globals, force: opts.force });
    process.stderr.write(notesText(result.notes));
    process.stdout.write(renderStubs(result.objects, format));
  });
}
