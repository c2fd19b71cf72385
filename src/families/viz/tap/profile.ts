import yaml from 'js-yaml';
import { TapStreamError } from './client.js';
import { HTTP_METHODS, INBOUND, type TapEvent } from './proto.js';
import { registeredText } from './render.js';

/*
 * `viz profile --tap` (viz/cmd/profile.go): the inbound request paths seen while tapping, as the
 * routes of a ServiceProfile (linkerd.io/v1alpha2) named `<svc>.<ns>.svc.<cluster domain>`.
 */

export interface RouteSpec {
  name: string;
  condition: { method: string; pathRegex: string };
}

export interface ServiceProfile {
  apiVersion: 'linkerd.io/v1alpha2';
  kind: 'ServiceProfile';
  metadata: { creationTimestamp: null; name: string; namespace: string };
  spec: { routes: RouteSpec[] };
}

/** Go's regexp.QuoteMeta. */
const quoteMeta = (s: string) => s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');

/** linkerd's profiles.PathToRegex: the path quoted, `{param}` segments as `[^/]*`. */
export function pathToRegex(path: string): string {
  return quoteMeta(path).replace(/\\\{[^}]*\\\}/g, '[^/]*');
}

/** The route a tap event suggests: an inbound request init with a path other than `/`. */
export function routeOf(e: TapEvent): RouteSpec | undefined {
  if (e.proxyDirection !== INBOUND || e.http?.kind !== 'requestInit') return undefined;
  const path = e.http.path;
  if (path === '/') return undefined;
  const method = registeredText(e.http.method, HTTP_METHODS);
  return { name: `${method} ${path}`, condition: { method, pathRegex: pathToRegex(path) } };
}

/**
 * Routes from the events until the stream ends or `limit` distinct routes are seen, sorted by
 * name. A stream error is reported through `onError` (not when `expected` says the stream was
 * closed on purpose, at the end of --tap-duration) and ends the collection.
 */
export async function collectRoutes(
  events: AsyncIterable<TapEvent>,
  limit: number,
  onError: (message: string) => void,
  expected: () => boolean,
): Promise<RouteSpec[]> {
  const routes = new Map<string, RouteSpec>();
  try {
    for await (const e of events) {
      const r = routeOf(e);
      if (!r) continue;
      routes.set(r.name, r);
      if (routes.size >= limit) break;
    }
  } catch (e) {
    if (!(e instanceof TapStreamError)) throw e;
    if (!expected()) onError(e.message);
  }
  return [...routes.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}

export function serviceProfile(name: string, namespace: string, clusterDomain: string, routes: RouteSpec[]): ServiceProfile {
  return {
    apiVersion: 'linkerd.io/v1alpha2',
    kind: 'ServiceProfile',
    metadata: { creationTimestamp: null, name: `${name}.${namespace}.svc.${clusterDomain}`, namespace },
    spec: { routes },
  };
}

/** sigs.k8s.io/yaml's rendering: keys sorted, sequences not indented under their key. */
export function profileYaml(p: ServiceProfile): string {
  return yaml.dump(p, { sortKeys: true, noArrayIndent: true, lineWidth: -1, noRefs: true });
}

export function profileJson(p: ServiceProfile): string {
  return `${JSON.stringify(p, null, 2)}\n`;
}
