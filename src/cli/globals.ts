import type { Command } from 'commander';
import * as z from 'zod';
import { UserError } from '../core/errors.js';
import type { KubeSelection } from '../core/kube/kubeconfig.js';
import { addFlags, type FlagSpec } from './kit/flags.js';
import { NAMESPACE_ENV_NOTE } from './kit/namespaceEnv.js';

/** Flags every command accepts, as the real CLI's persistent flags. */
export interface GlobalOptions extends KubeSelection {
  linkerdNamespace: string;
  cniNamespace: string;
  apiAddr?: string;
  verbose: boolean;
}

export const GLOBAL_FLAGS: readonly FlagSpec[] = [
  {
    name: 'linkerd-namespace',
    short: 'L',
    type: 'string',
    default: 'linkerd',
    help: `Namespace in which Linkerd is installed${NAMESPACE_ENV_NOTE}`,
    completion: 'namespaces',
  },
  { name: 'cni-namespace', type: 'string', default: 'linkerd-cni', help: 'Namespace in which the Linkerd CNI plugin is installed', completion: 'namespaces' },
  { name: 'kubeconfig', type: 'string', help: 'Path to the kubeconfig file to use for CLI requests' },
  { name: 'context', type: 'string', help: 'Name of the kubeconfig context to use', completion: 'contexts' },
  { name: 'as', type: 'string', help: 'Username to impersonate for Kubernetes operations' },
  { name: 'as-group', type: 'stringArray', default: [], help: 'Group to impersonate for Kubernetes operations (repeatable)' },
  {
    name: 'api-addr',
    type: 'string',
    help: 'Override kubeconfig and communicate directly with the control plane at host:port (mostly for testing; a command that does not use it says so)',
  },
  { name: 'verbose', type: 'bool', default: false, help: 'Turn on debug logging' },
];

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
  return addFlags(program, GLOBAL_FLAGS);
}

/**
 * Resolve the persistent flags, applying LINKERD_NAMESPACE when -L was left at its default and
 * the command reads it (`namespaceEnv`; not under viz or multicluster, whose real -L is their own).
 * `verbose` is reported before the namespace is checked, so that error can carry a stack trace too.
 */
export function resolveGlobals(program: Command, env: NodeJS.ProcessEnv, onVerbose: (verbose: boolean) => void = () => {}, namespaceEnv = true): GlobalOptions {
  const o = GlobalFlagsSchema.parse(program.opts());
  onVerbose(o.verbose);
  let ns = o.linkerdNamespace;
  if (namespaceEnv && program.getOptionValueSource('linkerdNamespace') === 'default' && env.LINKERD_NAMESPACE) {
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
