import * as z from 'zod';
import type { CommandSpec } from '../../../cli/kit/command.js';
import { UserError } from '../../../core/errors.js';
import { invalidArgument } from '../../../core/parse/invalidArgument.js';
import { parseGoDuration } from '../../../core/parse/goDuration.js';

const Options = z.object({ output: z.string(), wait: z.string(), timeout: z.string() });

const OUTPUTS = ['table', 'json', 'short'] as const;
const NOT_INSTALLED =
  'namespace with label "linkerd.io/extension: multicluster" not found; install by running `linkerd multicluster install | kubectl apply -f -`';

function durationMs(flag: string, value: string): number {
  try {
    const ns = parseGoDuration(value);
    if (ns < 0n) throw new UserError(`negative duration ${JSON.stringify(value)}`);
    return Number(ns / 1_000_000n);
  } catch (e) {
    throw invalidArgument(value, flag, (e as Error).message);
  }
}

export const checkCommand: CommandSpec = {
  name: 'check',
  summary: 'Check the multicluster extension for potential problems',
  long: 'Check the multicluster extension for potential problems.\n\nThe check command will perform a series of checks to validate that the multicluster extension is configured correctly. If the command encounters a failure it will print additional information about the failure and exit with a non-zero exit code.',
  examples: '  # Check that the multicluster extension is configured correctly\n  linkerd multicluster check',
  flags: [
    { name: 'output', short: 'o', type: 'string', default: 'table', help: 'Output format. One of: table, json, short' },
    { name: 'wait', type: 'duration', default: '5m0s', help: 'Maximum allowed time for all tests to pass' },
    { name: 'timeout', type: 'duration', default: '10s', help: 'Timeout for calls to the Kubernetes API' },
    // Hidden and ignored: `linkerd check` forwards them to every extension's check.
    { name: 'proxy', type: 'bool', default: false, help: '', hidden: true },
    { name: 'namespace', short: 'n', type: 'string', default: '', help: '', hidden: true },
  ],
  run: async ({ flags, globals, io }) => {
    const opts = Options.parse(flags);
    const output = OUTPUTS.find((o) => o === opts.output);
    if (!output)
      throw new UserError(
        `Validation error when executing check command: Invalid output type '${opts.output}'. Supported output types are: json, table, short`,
      );
    const waitMs = durationMs('wait', opts.wait);
    const timeoutMs = durationMs('timeout', opts.timeout);
    const { runMulticlusterCheck } = await import('./runCheck.js');
    return runMulticlusterCheck({ globals, io, output, waitMs, timeoutMs, notInstalled: NOT_INSTALLED });
  },
};
