import { UserError } from '../../../core/errors.js';
import { canonicalResourceName } from '../../../core/kube/friendlyNames.js';
import type { Resource } from './proto.js';

/*
 * The resource arguments of the viz data commands (linkerd's BuildResources): `TYPE`,
 * `TYPE/NAME`, `TYPE NAME1 NAME2…` or `T1/N1 T2/N2…`, canonical types, namespace-typed
 * resources without a namespace. And the order and short names the tables use.
 */

/** linkerd's k8s.AllResources: the order of a multi-type stat table. */
export const ALL_RESOURCES = [
  'cronjob',
  'daemonset',
  'deployment',
  'job',
  'namespace',
  'pod',
  'replicationcontroller',
  'replicaset',
  'service',
  'serviceprofile',
  'statefulset',
  'server',
  'serverauthorization',
  'authorizationpolicy',
  'httproute',
] as const;

const SHORT: Readonly<Record<string, string>> = {
  cronjob: 'cj',
  daemonset: 'ds',
  deployment: 'deploy',
  job: 'job',
  namespace: 'ns',
  pod: 'po',
  replicationcontroller: 'rc',
  replicaset: 'rs',
  service: 'svc',
  serviceprofile: 'sp',
  statefulset: 'sts',
  server: 'srv',
  serverauthorization: 'saz',
  authorizationpolicy: 'ap',
  httproute: 'httproute',
};

/** linkerd's ShortNameFromCanonicalResourceName. */
export const shortName = (type: string): string => SHORT[type] ?? type;

function build(namespace: string, type: string, name: string): Resource {
  const canonical = canonicalResourceName(type);
  // A namespace is not in a namespace: --namespace does not apply to it.
  return { namespace: canonical === 'namespace' ? '' : namespace, type: canonical, name };
}

function parseOne(namespace: string, type: string, arg: string): Resource {
  if (type) return build(namespace, type, arg);
  const parts = arg.split('/');
  if (parts.length === 1) return build(namespace, parts[0] ?? '', '');
  if (parts.length === 2) return build(namespace, parts[0] ?? '', parts[1] ?? '');
  throw new UserError(`Invalid resource string: ${arg}`);
}

/** linkerd's BuildResources. */
export function buildResources(namespace: string, args: readonly string[]): Resource[] {
  if (args.length === 0) throw new UserError('No resource arguments provided');
  const [first = '', ...rest] = args;
  const [type, names] = !first.includes('/') && args.length > 1 ? [first, rest] : ['', args];
  if (new Set(names).size < names.length) throw new UserError('cannot supply duplicate resources');
  if (names.includes('all') && names.length > 1) throw new UserError("'all' can't be supplied alongside other resources");
  return names.map((arg) => parseOne(namespace, type, arg));
}

/** linkerd's BuildResource: exactly one. */
export function buildResource(namespace: string, arg: string): Resource {
  return parseOne(namespace, '', arg);
}
