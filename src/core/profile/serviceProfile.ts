import { UserError } from '../errors.js';

/*
 * The ServiceProfile resource (linkerd.io/v1alpha2) as `linkerd profile` writes it: the fields of
 * linkerd's serviceprofile types, empty ones left out as their JSON tags say, and the names and
 * path regexes its generators give routes.
 */

export const SERVICE_PROFILE_API_VERSION = 'linkerd.io/v1alpha2';
export const SERVICE_PROFILE_KIND = 'ServiceProfile';

export interface RequestMatch {
  all?: RequestMatch[];
  not?: RequestMatch;
  any?: RequestMatch[];
  pathRegex?: string;
  method?: string;
}

export interface ResponseMatch {
  all?: ResponseMatch[];
  not?: ResponseMatch;
  any?: ResponseMatch[];
  status?: { min?: number; max?: number };
}

export interface ResponseClass {
  condition: ResponseMatch;
  isFailure?: boolean;
}

export interface RouteSpec {
  name: string;
  condition: RequestMatch;
  responseClasses?: ResponseClass[];
  isRetryable?: boolean;
  timeout?: string;
}

export interface ServiceProfile {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string };
  spec: { routes?: RouteSpec[]; retryBudget?: { retryRatio: number; minRetriesPerSecond: number; ttl: string } };
}

/** Whom a profile is for: the Service, its namespace, and the cluster's DNS domain. */
export interface ProfileTarget {
  service: string;
  namespace: string;
  clusterDomain: string;
}

/** `<service>.<namespace>.svc.<cluster domain>`: the authority the proxies look the profile up by. */
export function profileName(t: ProfileTarget): string {
  return `${t.service}.${t.namespace}.svc.${t.clusterDomain}`;
}

export function serviceProfile(t: ProfileTarget, routes: RouteSpec[]): ServiceProfile {
  return {
    apiVersion: SERVICE_PROFILE_API_VERSION,
    kind: SERVICE_PROFILE_KIND,
    metadata: { name: profileName(t), namespace: t.namespace },
    spec: routes.length > 0 ? { routes } : {},
  };
}

/** Go's regexp.QuoteMeta: a backslash before each of `\.+*?()|[]{}^$`. */
export function quoteMeta(s: string): string {
  return s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

/** A path with `{param}` segments as the regex a route matches: quoted, each parameter `[^/]*`. */
export function pathToRegex(path: string): string {
  return quoteMeta(path).replace(/\\\{[^}]*\\\}/g, '[^/]*');
}

const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const TOO_LONG = 'must be no more than 63 characters';

/** Kubernetes' IsDNS1035Label / IsDNS1123Label messages, joined as Go prints a []string. */
function labelErrors(value: string, re: RegExp, message: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(TOO_LONG);
  if (!re.test(value)) errs.push(message);
  return errs;
}

/** linkerd profile's checks of the SERVICE argument and `--namespace`, with its words. */
export function validateTarget(service: string, namespace: string): void {
  const svc = labelErrors(
    service,
    DNS1035_LABEL,
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
  );
  if (svc.length > 0) throw new UserError(`invalid service "${service}": [${svc.join(' ')}]`);
  const ns = labelErrors(
    namespace,
    DNS1123_LABEL,
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
  );
  if (ns.length > 0) throw new UserError(`invalid namespace "${namespace}": [${ns.join(' ')}]`);
}
