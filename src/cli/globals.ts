import type { Command } from 'commander';
import { UserError } from '../core/errors.js';

/** Flags every command accepts, as the real CLI's persistent flags. */
export interface GlobalOptions {
  linkerdNamespace: string;
  cniNamespace: string;
  kubeconfig?: string;
  context?: string;
  as?: string;
  asGroup: string[];
  apiAddr?: string;
  verbose: boolean;
}

const NAMESPACE_RE = /^[a-zA-Z0-9-]+$/;

export function addGlobalFlags(program: Command): Command {
  const collect = (v: string, prev: string[] = []) => [...prev, v];
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
  const o = program.opts();
  let ns: string = o.linkerdNamespace;
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
    asGroup: o.asGroup ?? [],
    apiAddr: o.apiAddr || undefined,
    verbose: Boolean(o.verbose),
  };
}
