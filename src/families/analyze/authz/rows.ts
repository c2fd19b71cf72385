import { UserError } from '../../../core/errors.js';
import { record, str } from '../objects.js';
import { parseSelector, selects, type Selector } from '../selector.js';

/*
 * Which Servers and authorizations apply to a set of pods, as `linkerd authz` answers it
 * (linkerd's pkg/k8s AuthorizationsForResource): ServerAuthorizations first, then
 * AuthorizationPolicies, in the order they were listed; a row per Server that includes a pod.
 * Kind and group comparisons are exact (case-sensitive), as in the real CLI.
 */

export type Body = Record<string, unknown>;

export interface PodView {
  readonly labels: Readonly<Record<string, string>>;
  /** Ports of every container and init container. */
  readonly ports: ReadonlyArray<{ readonly name?: string; readonly number: number }>;
}

/** Where the policy objects of one namespace come from: the cluster, or manifests. */
export interface AuthzSource {
  serverAuthorizations(): Promise<Body[]>;
  authorizationPolicies(): Promise<Body[]>;
  /** One Server by name; throws (its message is printed) when it cannot be had. */
  server(name: string): Promise<Body>;
  /** Every Server of the namespace. */
  servers(): Promise<Body[]>;
  httpRoute(name: string): Promise<Body>;
}

export interface AuthzRow {
  readonly route: string;
  readonly server: string;
  readonly authorizationPolicy: string;
  readonly serverAuthorization: string;
}

export interface AuthzResult {
  readonly rows: AuthzRow[];
  /** Objects skipped on the way, one line each (the real CLI prints them to stderr). */
  readonly warnings: string[];
}

const POLICY_GROUP = 'policy.linkerd.io';

const nameOf = (o: Body) => str(record(o.metadata).name) ?? '';
const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * A Server includes a pod when its podSelector selects the pod and some container port matches its
 * port: the number, or the name. A numeric port also matches any unnamed container port, as in the
 * real CLI (its string value is empty, and so is an unnamed port's name).
 */
export function serverIncludes(server: Body, pods: readonly PodView[]): boolean {
  const spec = record(server.spec);
  if (spec.podSelector === undefined || spec.podSelector === null) return false;
  const selector: Selector = parseSelector(spec.podSelector);
  const port = spec.port;
  return pods.some(
    (pod) => selects(selector, pod.labels) && pod.ports.some((p) => (typeof port === 'number' ? p.number === port || (p.name ?? '') === '' : p.name === port)),
  );
}

async function listed(what: string, list: () => Promise<Body[]>): Promise<Body[]> {
  try {
    return await list();
  } catch (e) {
    throw new UserError(`Failed to get ${what} resources: ${messageOf(e)}`);
  }
}

export async function authorizationsFor(source: AuthzSource, pods: readonly PodView[]): Promise<AuthzResult> {
  const rows: AuthzRow[] = [];
  const warnings: string[] = [];
  const row = (server: Body, r: Partial<AuthzRow>) => {
    if (serverIncludes(server, pods)) rows.push({ route: '', authorizationPolicy: '', serverAuthorization: '', ...r, server: nameOf(server) });
  };
  const tryGet = async (get: () => Promise<Body>, failure: string): Promise<Body | undefined> => {
    try {
      return await get();
    } catch (e) {
      warnings.push(`${failure} but we failed to get it: ${messageOf(e)}`);
      return undefined;
    }
  };

  for (const saz of await listed('serverauthorization', () => source.serverAuthorizations())) {
    const sazName = nameOf(saz);
    const target = record(record(saz.spec).server);
    const name = str(target.name);
    if (name !== undefined && name !== '') {
      const server = await tryGet(() => source.server(name), `ServerAuthorization/${sazName} targets Server/${name}`);
      if (server) row(server, { serverAuthorization: sazName });
    } else if (target.selector !== undefined) {
      const selector = parseSelector(target.selector);
      for (const server of await source.servers())
        if (selects(selector, record(record(server.metadata).labels) as Record<string, string>)) row(server, { serverAuthorization: sazName });
    }
  }

  for (const ap of await listed('AuthorizationPolicy', () => source.authorizationPolicies())) {
    const apName = nameOf(ap);
    const ref = record(record(ap.spec).targetRef);
    const [group, kind, name] = [str(ref.group) ?? '', str(ref.kind) ?? '', str(ref.name) ?? ''];
    if (kind === 'Namespace' && group === 'core') {
      for (const server of await source.servers()) row(server, { authorizationPolicy: apName });
    } else if (kind === 'Server' && group === POLICY_GROUP) {
      const server = await tryGet(() => source.server(name), `AuthorizationPolicy/${apName} targets Server/${name}`);
      if (server) row(server, { authorizationPolicy: apName });
    } else if (kind === 'HTTPRoute' && group === POLICY_GROUP) {
      const route = await tryGet(() => source.httpRoute(name), `AuthorizationPolicy/${apName} targets HTTPRoute/${name}`);
      if (!route) continue;
      for (const parent of Array.isArray(record(route.spec).parentRefs) ? (record(route.spec).parentRefs as unknown[]) : []) {
        const p = record(parent);
        if (str(p.kind) !== 'Server' || str(p.group) !== POLICY_GROUP) continue;
        const serverName = str(p.name) ?? '';
        const server = await tryGet(() => source.server(serverName), `HTTPRoute/${name} belongs to Server/${serverName}`);
        if (server) row(server, { route: name, authorizationPolicy: apName });
      }
    }
  }
  return { rows, warnings };
}
