import { UserError } from '../errors.js';

/*
 * The resource words the real CLI accepts in `TYPE/NAME` arguments (linkerd's pkg/k8s resourceNames):
 * short, singular and plural spellings of each kind, mapped to its canonical lower-case name.
 */

const SPELLINGS: ReadonlyArray<readonly [canonical: string, ...spellings: string[]]> = [
  ['cronjob', 'cj', 'cronjobs'],
  ['daemonset', 'ds', 'daemonsets'],
  ['deployment', 'deploy', 'deployments'],
  ['job', 'jobs'],
  ['namespace', 'ns', 'namespaces'],
  ['pod', 'po', 'pods'],
  ['replicationcontroller', 'rc', 'replicationcontrollers'],
  ['replicaset', 'rs', 'replicasets'],
  ['service', 'svc', 'services'],
  ['serviceprofile', 'sp', 'serviceprofiles'],
  ['statefulset', 'sts', 'statefulsets'],
  ['server', 'srv', 'servers'],
  ['serverauthorization', 'saz', 'serverauthz', 'srvauthz', 'serverauthorizations'],
  ['authorizationpolicy', 'ap', 'authzpolicy', 'authzpolicies', 'authorizationpolicies'],
  ['httproute', 'httproutes'],
  ['meshtlsauthentication', 'meshtlsauthn', 'meshtlsauthentications'],
  ['networkauthentication', 'netauthn', 'networkauthn', 'networkauthentications'],
  ['link', 'ln', 'links'],
  ['all'],
];

const CANONICAL: ReadonlyMap<string, string> = new Map(SPELLINGS.flatMap(([canonical, ...rest]) => [canonical, ...rest].map((s) => [s, canonical] as const)));

/** The canonical name of a friendly resource word, case-insensitively. */
export function canonicalResourceName(friendly: string): string {
  const found = CANONICAL.get(friendly.toLowerCase());
  if (found === undefined) throw new UserError(`cannot find Kubernetes canonical name from friendly name [${friendly}]`);
  return found;
}

export interface ResourceArg {
  /** Canonical lower-case kind (`deployment`). */
  readonly type: string;
  /** Empty for a bare `TYPE`. */
  readonly name: string;
}

/**
 * `TYPE`, `TYPE/NAME`, or the two words `TYPE NAME` joined as the real CLI joins them. More than
 * one `/` is refused with `invalidMessage`.
 */
export function parseResourceArg(args: readonly string[], invalidMessage: (arg: string) => string): ResourceArg {
  const joined = args.length === 2 ? `${args[0]}/${args[1]}` : (args[0] ?? '');
  const parts = joined.split('/');
  if (parts.length > 2) throw new UserError(invalidMessage(joined));
  return { type: canonicalResourceName(parts[0] ?? ''), name: parts[1] ?? '' };
}
