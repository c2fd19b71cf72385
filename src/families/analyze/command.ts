import * as z from 'zod';
import { UserError } from '../../core/errors.js';
import type { CommandBody } from '../../cli/kit/command.js';
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

export const command: CommandBody = {
  long: 'Check Linkerd policy against the workloads it governs, offline, before it is applied',
  args: [{ name: 'FILE|DIR|URL|-', help: 'manifests to analyze', variadic: true }],
  examples: EXAMPLES,
  flags: [
    { name: 'use-cluster', type: 'bool', default: false, help: "Also read the cluster's objects (the files win over them)" },
    {
      name: 'namespace',
      short: 'n',
      type: 'string',
      help: 'Namespace of objects without one (default "default"); with --use-cluster, read only it and the namespaces the files name',
      completion: 'namespaces',
    },
    { name: 'output', short: 'o', type: 'string', default: 'table', help: `Output format, one of: ${OUTPUTS.join('|')}` },
    { name: 'fail-on', type: 'string', default: 'error', help: `Exit non-zero when a finding is at or above this severity: ${SEVERITIES.join('|')}` },
    { name: 'suppress', type: 'stringArray', default: [], help: 'Leave out findings of a code, or of a code on one resource (repeatable)' },
  ],
  run: async ({ args, flags, globals, io }) => {
    const inputs = (args[0] as string[] | undefined) ?? [];
    const o = OptionsSchema.parse(flags);
    const output = oneOf('--output', o.output, OUTPUTS);
    const failOn = oneOf('--fail-on', o.failOn, SEVERITIES);
    if (inputs.length === 0 && !o.useCluster) throw new UserError('please specify a kubernetes resource file, a directory, a URL or - (or --use-cluster)');
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
    for (const s of result.skipped) io.stderr.write(`skipped ${s.path}: ${s.reason}\n`);
    const { printFindings } = await import('./print/index.js');
    io.stdout.write(await printFindings(result.findings, output, failOn));
    return result.exitCode;
  },
};
