import { DEFAULT_VERSIONCHECK_TIMEOUT_MS, VERSIONCHECK_URL, runCheck } from '../../../core/check/runCheck.js';
import { UserError } from '../../../core/errors.js';
import { clientVersion } from '../../../core/version.js';
import type { GlobalOptions } from '../../../cli/globals.js';
import type { CliIo } from '../../../cli/kit/io.js';
import { multicluster } from '../index.js';
import { withCluster } from '../cluster.js';

/*
 * `linkerd multicluster check`: the family's category alone, through the shared runner and
 * printers, once the extension's namespace is found (as the real command looks for it first).
 */

export interface MulticlusterCheckRun {
  globals: GlobalOptions;
  io: CliIo;
  output: 'table' | 'json' | 'short';
  waitMs: number;
  timeoutMs: number;
  notInstalled: string;
}

export async function runMulticlusterCheck(o: MulticlusterCheckRun): Promise<number> {
  const { globals, io } = o;
  const labelled = await withCluster(globals, (c) => c.list('namespaces', { labelSelector: 'linkerd.io/extension=multicluster' }));
  if (labelled.length === 0) throw new UserError(o.notInstalled);
  const entry = multicluster.checks;
  if (!entry) throw new Error('the multicluster family declares no checks');
  const out = (s: string) => io.stdout.write(s);
  const request = {
    mode: 'default' as const,
    kube: { kubeconfig: globals.kubeconfig, context: globals.context, as: globals.as, asGroup: globals.asGroup },
    controlPlaneNamespace: globals.linkerdNamespace,
    cliVersion: clientVersion(io.env),
    versionCheck: { url: io.env.LINKERD_VERSIONCHECK_URL || VERSIONCHECK_URL, timeoutMs: DEFAULT_VERSIONCHECK_TIMEOUT_MS },
    timeoutMs: o.timeoutMs,
    waitMs: o.waitMs,
    env: io.env,
    // Only this family's category: the core checks are `linkerd check`'s.
    selection: { skip: [], only: ['linkerd-multicluster'] },
  };
  let printer: import('../../../cli/output/check-table.js').StreamPrinter | undefined;
  let events = {};
  if (o.output !== 'json') {
    const { painterFor } = await import('../../../cli/output/terminal.js');
    const { tablePrinter } = await import('../../../cli/output/check-table.js');
    const p = tablePrinter({ short: o.output === 'short', write: out, paint: await painterFor(io.stdout, io.env) });
    printer = p;
    events = { waiting: (c: { description: string }, message: string) => p.waiting(c.description, message), result: p.result.bind(p) };
  }
  const report = await runCheck(request, events, [entry]);
  if (printer) printer.finish(report);
  else out((await import('../../../cli/output/check-json.js')).checkJson(report));
  return report.success ? 0 : 1;
}
