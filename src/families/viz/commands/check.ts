import * as z from 'zod';
import type { CommandBody } from '../../../cli/kit/command.js';
import { parseWait } from './shared.js';

const CheckOptions = z.object({
  output: z.string(),
  proxy: z.boolean(),
  wait: z.string(),
  namespace: z.string().optional(),
  vizNamespace: z.string().optional(),
});

export const command: CommandBody = {
  apiAddr: true,
  long: `Check the Linkerd Viz extension for potential problems.

The check command will perform a series of checks to validate that the Linkerd Viz
extension is configured correctly. If the command encounters a failure it will
print additional information about the failure and exit with a non-zero exit
code.`,
  examples: '  # Check that the viz extension is up and running\n  linkerd viz check',
  flags: [
    { name: 'output', short: 'o', type: 'string', default: 'table', help: 'Output format. One of: table, json, short' },
    { name: 'proxy', type: 'bool', default: false, help: 'Also run data-plane checks, to determine if the data plane is healthy' },
    { name: 'wait', type: 'duration', default: '5m0s', help: 'Maximum allowed time for all tests to pass' },
    { name: 'namespace', short: 'n', type: 'string', help: 'Namespace to use for --proxy checks (default: all namespaces)', completion: 'namespaces' },
  ],
  run: async ({ flags, globals, io }) => {
    const opts = CheckOptions.parse(flags);
    const { vizCheckOutput, vizCheckRequest } = await import('../check/request.js');
    const output = vizCheckOutput(opts.output);
    const request = vizCheckRequest({
      cluster: globals,
      controlPlaneNamespace: globals.linkerdNamespace,
      proxy: opts.proxy,
      namespace: opts.namespace,
      vizNamespace: opts.vizNamespace,
      apiAddr: globals.apiAddr,
      waitMs: parseWait(opts.wait),
      env: io.env,
    });
    // Like the real viz check, a kubeconfig that cannot make a client ends the command before any
    // check. Only the kubeconfig is read here: credentials (an exec plugin) are the checks' first request's.
    const { loadKubeConfig } = await import('../../../core/kube/kubeconfig.js');
    try {
      await loadKubeConfig(globals, io.env);
    } catch (e) {
      io.stderr.write(`Error initializing k8s API client: ${(e as Error).message}\n`);
      return 1;
    }
    const { runCheck } = await import('../../../core/check/index.js');
    const out = (s: string) => io.stdout.write(s);
    if (output === 'json') {
      const report = await runCheck(request);
      out((await import('../../../cli/output/check-json.js')).checkJson(report));
      return report.success ? 0 : 1;
    }
    const [{ isInteractive, painterFor, spinnerFor }, { tablePrinter }] = await Promise.all([
      import('../../../cli/output/terminal.js'),
      import('../../../cli/output/check-table.js'),
    ]);
    const spinner = isInteractive(io.stdout, io.env) ? await spinnerFor(io.stderr, io.env) : undefined;
    const printer = tablePrinter({ short: output === 'short', write: out, paint: await painterFor(io.stdout, io.env), spinner });
    const report = await runCheck(request, { waiting: (c, message) => printer.waiting(c.description, message), result: (r) => printer.result(r) });
    printer.finish(report);
    return report.success ? 0 : 1;
  },
};
