import * as z from 'zod';
import type { FlagSpec } from '../../../cli/kit/flags.js';
import { DEFAULT_MAX_RPS, parseMaxRps, type TapRequestParams } from './request.js';

/* The flags tap and top share (viz/cmd/tap.go, top.go), and their operands. */

export const TAP_FILTER_FLAGS: readonly FlagSpec[] = [
  { name: 'namespace', short: 'n', type: 'string', help: 'Namespace of the specified resource', completion: 'namespaces' },
  { name: 'to', type: 'string', help: 'Display requests to this resource' },
  {
    name: 'to-namespace',
    type: 'string',
    help: 'Sets the namespace used to lookup the "--to" resource; by default the current "--namespace" is used',
    completion: 'namespaces',
  },
  { name: 'max-rps', type: 'float32', default: String(DEFAULT_MAX_RPS), help: 'Maximum requests per second to tap.' },
  { name: 'scheme', type: 'string', help: 'Display requests with this scheme' },
  { name: 'method', type: 'string', help: 'Display requests with this HTTP method' },
  { name: 'authority', type: 'string', help: 'Display requests with this :authority' },
  { name: 'path', type: 'string', help: 'Display requests with paths that start with this prefix' },
];

export const SELECTOR_FLAG: FlagSpec = {
  name: 'selector',
  short: 'l',
  type: 'string',
  help: "Selector (label query) to filter on, supports '=', '==', and '!='",
};

/** One or two words (cobra.RangeArgs(1, 2), the commands' arity). */
export const TAP_RESOURCE_ARG = { name: 'RESOURCE', help: '(TYPE [NAME] | TYPE/NAME)', variadic: true } as const;

const FilterFlags = z.object({
  namespace: z.string().optional(),
  to: z.string().optional(),
  toNamespace: z.string().optional(),
  maxRps: z.string(),
  scheme: z.string().optional(),
  method: z.string().optional(),
  authority: z.string().optional(),
  path: z.string().optional(),
  selector: z.string().optional(),
  vizNamespace: z.string().optional(),
});

/** A tap's request parameters, the namespace left to the kubeconfig when not given, and `--viz-namespace`. */
export type TapCommandParams = Omit<TapRequestParams, 'namespace'> & { namespace?: string; vizNamespace?: string };

/** The request parameters of the operands and flags; the namespace is filled in once the kubeconfig is read. */
export function tapParams(args: unknown[], flags: Record<string, unknown>): TapCommandParams {
  const words = (args[0] as string[] | undefined) ?? [];
  const f = FilterFlags.parse(flags);
  return {
    vizNamespace: f.vizNamespace || undefined,
    resource: words.join('/'),
    namespace: f.namespace || undefined,
    toResource: f.to || undefined,
    toNamespace: f.toNamespace || undefined,
    maxRps: parseMaxRps(f.maxRps),
    scheme: f.scheme || undefined,
    method: f.method || undefined,
    authority: f.authority || undefined,
    path: f.path || undefined,
    labelSelector: f.selector || undefined,
  };
}

export const TARGETS_HELP = `  The RESOURCE argument specifies the target resource(s) to %VERB%:
  (TYPE [NAME] | TYPE/NAME)

  Examples:
  * cronjob/my-cronjob
  * deploy
  * deploy/my-deploy
  * deploy my-deploy
  * ds/my-daemonset
  * job/my-job
  * ns/my-ns
  * rs
  * rs/my-replicaset
  * sts
  * sts/my-statefulset

  Valid resource types include:
  * cronjobs
  * daemonsets
  * deployments
  * jobs
  * namespaces
  * pods
  * replicasets
  * replicationcontrollers
  * statefulsets
  * services (only supported as a --to resource)`;
