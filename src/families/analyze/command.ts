import type { Command } from 'commander';
import * as z from 'zod';
import { UserError } from '../../core/errors.js';
import { collect } from '../../cli/flags/collect.js';
import { resolveGlobals } from '../../cli/globals.js';
import { setExamples } from '../../cli/help/cobraHelp.js';
import { SEVERITIES } from './finding.js';

const OUTPUTS = ['table', 'json', 'sarif', 'junit'] as const;

const OptionsSchema = z.object({
  useCluster: z.boolean().default(false),
  namespace: z.string().optional(),
  output: z.string().default('table'),
  failOn: z.string().default('error'),
  suppress: z.array(z.string()).default([]),
});

const EXAMPLES = `
  # Check an application's manifests and policy before applying them.
  linkerd analyze ./k8s/

  # The same change against what the cluster already has (the files win).
  linkerd analyze --use-cluster -n emojivoto policy.yaml

  # For code scanning, failing the job on warnings too.
  linkerd analyze -o sarif --fail-on warning ./k8s/ > analyze.sarif`;

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new UserError(`${flag} must be one of: ${allowed.join(', ')} (got ${value})`);
  return value as T;
}

export function register(program: Command): Command {
  const cmd = program
    .command('analyze')
    .description('Check Linkerd policy against the workloads it governs, offline, before it is applied')
    .argument('[FILE|DIR|URL|-...]', 'manifests to analyze')
    .option('--use-cluster', "Also read the cluster's objects (the files win over them)")
    .option('-n, --namespace <ns>', 'Namespace of objects without one, and the scope of --use-cluster')
    .option('-o, --output <format>', `Output format, one of: ${OUTPUTS.join('|')}`, 'table')
    .option('--fail-on <severity>', `Exit non-zero when a finding is at or above this severity: ${SEVERITIES.join('|')}`, 'error')
    .option('--suppress <CODE[=KIND/NAME]>', 'Leave out findings of a code, or of a code on one resource (repeatable)', collect, []);
  setExamples(cmd, EXAMPLES);
  return cmd.action(async (inputs: string[], flags: unknown) => {
    const o = OptionsSchema.parse(flags);
    const output = oneOf('--output', o.output, OUTPUTS);
    const failOn = oneOf('--fail-on', o.failOn, SEVERITIES);
    if (inputs.length === 0 && !o.useCluster) throw new UserError('please specify a kubernetes resource file, a directory, a URL or - (or --use-cluster)');
    const globals = resolveGlobals(program);
    const { runAnalyze } = await import('./run.js');
    const result = await runAnalyze({
      inputs,
      useCluster: o.useCluster,
      namespace: o.namespace,
      failOn,
      suppress: o.suppress,
      controlPlaneNamespace: globals.linkerdNamespace,
      kube: globals,
    });
    for (const s of result.skipped) process.stderr.write(`skipped ${s.path}: ${s.reason}\n`);
    const { printFindings } = await import('./print/index.js');
    process.stdout.write(await printFindings(result.findings, output, failOn));
    process.exitCode = result.exitCode;
  });
}
