import type { Command } from 'commander';
import * as z from 'zod';
import { UserError } from '../core/errors.js';
import type { KubeSelection } from '../core/kube/kubeconfig.js';
import { collect } from './flags/collect.js';

/** Flags every command accepts, as the real CLI's persistent flags. */
export interface GlobalOptions extends KubeSelection {
  linkerdNamespace: string;
  cniNamespace: string;
  apiAddr?: string;
  verbose: boolean;
}

/** The persistent flags as commander hands them over (an empty string means not given). */
const GlobalFlagsSchema = z.object({
  linkerdNamespace: z.string(),
  cniNamespace: z.string(),
  kubeconfig: z.string().optional(),
  context: z.string().optional(),
  as: z.string().optional(),
  asGroup: z.array(z.string()).default([]),
  apiAddr: z.string().optional(),
  verbose: z.boolean().default(false),
});

const NAMESPACE_RE = /^[a-zA-Z0-9-]+$/;

export function addGlobalFlags(program: Command): Command {
  return program
    .option('-L, --linkerd-namespace <ns>', 'Namespace in which Linkerd is installed ($LINKERD_NAMESPACE)', 'linkerd')
    .option('--cni-namespace <ns>', 'Namespace in which the Linkerd CNI plugin is installed', 'linkerd-cni')
    .option('--kubeconfig <path>', 'Path to the kubeconfig file to use for CLI requests')
    .option('--context <name>', 'Name of the kubeconfig context to use')
    .option('--as <user>', 'Username to impersonate for Kubernetes operations')
    .option('--as-group <group>', 'Group to impersonate for Kubernetes operations (repeatable)', collect, [])
    .option('--api-addr <host:port>', 'Override kubeconfig and communicate directly with the control plane at host:port (mostly for testing)')
    .option('--verbose', 'Turn on debug logging', false);
}

/** Resolve the persistent flags, applying LINKERD_NAMESPACE when -L was left at its default. */
export function resolveGlobals(program: Command, env: NodeJS.ProcessEnv = process.env): GlobalOptions {
  const o = GlobalFlagsSchema.parse(program.opts());
  let ns = o.linkerdNamespace;
  if (program.getOptionValueSource('linkerdNamespace') === 'default' && env.LINKERD_NAMESPACE) {
    ns = env.LINKERD_NAMESPACE;
  }
  if (!NAMESPACE_RE.test(ns)) throw new UserError(`${ns} is not a valid namespace`);
  return {
    linkerdNamespace: ns,
    cniNamespace: o.cniNamespace,
    kubeconfig: o.kubeconfig || undefined,
    context: o.context || undefined,
    as: o.as || undefined,
    asGroup: o.asGroup,
    apiAddr: o.apiAddr || undefined,
    verbose: o.verbose,
  };
}
