import type { KubeObject } from '../../core/kube/resources.js';
import type { GlobalOptions } from '../globals.js';
import type { CommandBody } from '../kit/command.js';
import type { CliIo } from '../kit/io.js';

export const command: CommandBody = {
  // Passed on to the extensions' checks (linkerd-<ext> check --api-addr=…).
  apiAddr: true,
  // The real CLI's examples.
  examples: `  # Check that the Linkerd control plane is up and running
  linkerd check

  # Check that the Linkerd control plane can be installed in the "test" namespace
  linkerd check --pre --linkerd-namespace test

  # Check that the Linkerd data plane proxies in the "app" namespace are up and running
  linkerd check --proxy --namespace app`,
  flags: [
    {
      name: 'expected-version',
      type: 'string',
      help: 'Overrides the version used when checking if Linkerd is running the latest version (mostly for testing)',
    },
    { name: 'cli-version-override', type: 'string', help: 'Used to override the version of the cli (mostly for testing)' },
    { name: 'output', short: 'o', type: 'string', default: 'table', help: 'Output format. One of: table, json, short, junit' },
    { name: 'wait', type: 'duration', default: '5m0s', help: 'Maximum allowed time for all tests to pass (retryable checks are retried until then)' },
    { name: 'timeout', type: 'duration', default: '30s', help: 'Maximum time for one attempt of one check' },
    {
      name: 'linkerd-cni-enabled',
      type: 'bool',
      default: false,
      help: 'When running pre-installation checks (--pre), assume the linkerd-cni plugin is already installed, and a NET_ADMIN check is not needed',
    },
    { name: 'namespace', short: 'n', type: 'string', help: 'Namespace to use for --proxy checks (default: all namespaces)', completion: 'namespaces' },
    { name: 'pre', type: 'bool', default: false, help: 'Only run pre-installation checks, to determine if the control plane can be installed' },
    { name: 'crds', type: 'bool', default: false, help: 'Only run checks which determine if the Linkerd CRDs have been installed' },
    { name: 'proxy', type: 'bool', default: false, help: 'Only run data-plane checks, to determine if the data plane is healthy' },
    {
      name: 'skip',
      type: 'strings',
      default: [],
      help: 'Skip a check (by id, see --list) or a whole category; repeatable, comma-separated',
      completion: 'checkSelectors',
    },
    { name: 'only', type: 'strings', default: [], help: 'Run only these checks or categories; repeatable, comma-separated', completion: 'checkSelectors' },
    { name: 'fail-on', type: 'string', default: 'error', help: 'Lowest result that fails the run: error or warning' },
    { name: 'cert-min-validity', type: 'duration', help: 'Certificates expiring within this time (e.g. 30d) fail the run instead of warning' },
    { name: 'list', type: 'bool', default: false, help: 'List every check with its id, category and severity, and exit' },
  ],
  run: ({ flags, globals, io }) => runCheckCommand(flags, globals, io),
};

/** The objects `linkerd install` renders with default values, for `--pre`'s dry-runs and access reviews. */
async function installObjects(namespace: string): Promise<KubeObject[]> {
  const { renderInstall } = await import('../../core/install/index.js');
  const rendered = await renderInstall({ namespace, crds: false, flags: [], valuesFiles: [], set: [], setString: [], setFile: [] });
  return rendered.objects;
}

async function runCheckCommand(flags: unknown, globals: GlobalOptions, io: CliIo): Promise<number> {
  const core = await import('../../core/check/index.js');
  const { prepareCheck } = await import('../flags/prepareCheck.js');
  const { CHECK_FAMILIES } = await import('../../families/checkFamilies.js');
  // Every registered family's checks, for --list and for the ids --skip/--only may name.
  const registry = await core.loadCheckRegistry([core.CORE_CHECK_FAMILY], CHECK_FAMILIES);
  const { request, output, list } = prepareCheck(flags, globals, {
    env: io.env,
    installObjects: () => installObjects(globals.linkerdNamespace),
    knownCheckId: (id) => registry.hasCheck(id),
  });
  const out = (s: string) => io.stdout.write(s);
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
    const spinner = isInteractive(io.stdout, io.env) ? await spinnerFor(io.stderr, io.env) : undefined;
    printer = tablePrinter({ short: output === 'short', write: out, paint: await painterFor(io.stdout, io.env), spinner });
    const p = printer;
    events = { waiting: (c, message) => p.waiting(c.description, message), result: (r) => p.result(r) };
  }
  const report = await core.runCheck(request, events, CHECK_FAMILIES);
  if (report.extensionError !== undefined) {
    if (printer) printer.stop();
    else if (output === 'json') out((await import('../output/check-json.js')).checkJson(report));
    const { terminalText } = await import('../output/sanitize.js');
    io.stderr.write(`${terminalText(report.extensionError)}\n`);
    return 1;
  }
  if (printer) printer.finish(report);
  else if (output === 'json') out((await import('../output/check-json.js')).checkJson(report));
  else out((await import('../output/check-junit.js')).checkJunit(report, { failOnWarning: request.failOn === 'warning' }));
  for (const token of report.unmatchedSelectors) io.stderr.write(`Warning: "${token}" in --skip/--only matched no check\n`);
  return report.success ? 0 : 1;
}
