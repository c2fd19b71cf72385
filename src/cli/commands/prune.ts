import type { Command } from 'commander';
import { OutputOption } from '../flags/helmValues.js';
import { resolveGlobals } from '../globals.js';
import { setExamples } from '../help/cobraHelp.js';
import { manifestFormat } from '../output/manifest.js';
import { renderStubs } from '../output/stubs.js';
import { notesText } from '../output/sanitize.js';

export function register(program: Command): Command {
  const cmd = program.command('prune').description('Output extraneous Kubernetes resources in the linkerd control plane');
  setExamples(cmd, '  # Prune extraneous resources.\n  linkerd prune | kubectl delete -f -');
  return cmd.option('-o, --output <format>', 'Output format. One of: json|yaml', 'yaml').action(async (flags: unknown) => {
    const opts = OutputOption.parse(flags);
    const globals = resolveGlobals(program);
    const format = manifestFormat(opts.output);
    const { prune } = await import('../../core/lifecycle/index.js');
    const result = await prune({ namespace: globals.linkerdNamespace, cluster: globals });
    process.stderr.write(notesText(result.notes));
    process.stdout.write(renderStubs(result.objects, format));
  });
}
