import type { Command } from 'commander';
import type { KubeObject } from '../../core/kube/resources.js';
import { collect } from '../flags/collect.js';
import { resolveGlobals, type GlobalOptions } from '../globals.js';

export function register(program: Command): Command {
  return program
    .command('check')
    .description('Check the Linkerd installation for potential problems')
    .option('--expected-version <version>', 'Overrides the version used when checking if Linkerd is running the latest version (mostly for testing)')
    .option('--cli-version-override <version>', 'Used to override the version of the cli (mostly for testing)')
    .option('-o, --output <format>', 'Output format. One of: table, json, short, junit', 'table')
    .option('--wait <duration>', 'Maximum allowed time for all tests to pass (retryable checks are retried until then)', '5m0s')
    .option('--timeout <duration>', 'Maximum time for one attempt of one check', '30s')
    .option(
      '--linkerd-cni-enabled',
      'When running pre-installation checks (--pre), assume the linkerd-cni plugin is already installed, and a NET_ADMIN check is not needed',
      false,
    )
    .option('-n, --namespace <ns>', 'Namespace to use for --proxy checks (default: all namespaces)')
    .option('--pre', 'Only run pre-installation checks, to determine if the control plane can be installed', false)
    .option('--crds', 'Only run checks which determine if the Linkerd CRDs have been installed', false)
    .option('--proxy', 'Only run data-plane checks, to determine if the data plane is healthy', false)
    .option('--skip <id|category>', 'Skip a check (by id, see --list) or a whole category; repeatable, comma-separated', collect, [])
    .option('--only <id|category>', 'Run only these checks or categories; repeatable, comma-separated', collect, [])
    .option('--fail-on <level>', 'Lowest result that fails the run: error or warning', 'error')
    .option('--cert-min-validity <duration>', 'Certificates expiring within this time (e.g. 30d) fail the run instead of warning')
    .option('--list', 'List every check with its id, category and severity, and exit', false)
    .action(async (flags: unknown) => {
      const globals = resolveGlobals(program);
      process.exitCode = await runCheckCommand(flags, globals);
    });
}

/** The objects `linkerd install` renders with default values, for `--pre`'s dry-runs and access reviews. */
async function installObjects(namespace: string): Promise<KubeObject[]> {
  const { renderInstall } = await import('../../core/install/index.js');
  const rendered = await renderInstall({ namespace, crds: false, flags: [], valuesFiles: [], set: [], setString: [], setFile: [] });
  return rendered.objects;
}

async function runCheckCommand(flags: unknown, globals: GlobalOptions): Promise<number> {
  const core = await import('../../core/check/index.js');
  const { prepareCheck } = await import('../flags/prepareCheck.js');
  const { CHECK_FAMILIES } = await import('../../families/checkFamilies.js');
  // Every registered family's checks, for --list and for the ids --skip/--only may name.
  const registry = await core.loadCheckRegistry([core.CORE_CHECK_FAMILY], CHECK_FAMILIES);
  const { request, output, list } = prepareCheck(flags, globals, {
    env: process.env,
    installObjects: () => installObjects(globals.linkerdNamespace),
    knownCheckId: (id) => registry.hasCheck(id),
  });
  const out = (s: string) => process.stdout.write(s);
  if (list) {
    const { checkList } = await import('../output/check-list.js');
    out(checkList(registry.checks, (c) => registry.modesOf(c), { json: output === 'json', hintBaseUrl: core.hintBaseUrl(request.cliVersion) }));
    return 0;
  }
  let events: import('../../core/check/index.js').CheckEvents = {};
  let printer: import('../output/check-table.js').StreamPrinter | undefined;
  if (output === 'table' || output === 'short') {
    const { isInteractive, painterFor, spinnerFor } = await import('../output/terminal.js');
    const { tablePrinter } = await import('../output/check-table.js');
    // Spinners only when a person is watching: both streams are terminals, and neither CI nor NO_COLOR is set.
    const spinner = isInteractive(process.stdout) ? await spinnerFor(process.stderr) : undefined;
    printer = tablePrinter({ short: output === 'short', write: out, paint: await painterFor(process.stdout), spinner });
    const p = printer;
    events = { waiting: (c, message) => p.waiting(c.description, message), result: (r) => p.result(r) };
  }
  const report = await core.runCheck(request, events, CHECK_FAMILIES);
  if (printer) printer.finish(report);
  else if (output === 'json') out((await import('../output/check-json.js')).checkJson(report));
  else out((await import('../output/check-junit.js')).checkJunit(report, { failOnWarning: request.failOn === 'warning' }));
  for (const token of report.unmatchedSelectors) process.stderr.write(`Warning: "${token}" in --skip/--only matched no check\n`);
  return report.success ? 0 : 1;
}
