import { GATEWAY_GROUP, INJECT, POLICY_GROUP, isServed } from './mesh.js';
import { record, str, stringMap, type InputObject } from './objects.js';
import { labelKey, parseSelector, selectFrom, selects, type Selector } from './selector.js';
import { workloadOf, type Workload } from './workloads.js';

/*
 * Every input object read once into lookup tables, so each rule is a few map lookups per object
 * instead of a scan of all the others: workloads by namespace and label, Servers by namespace and
 * name (and by label, for ServerAuthorization selectors), authorizations by what they target,
 * authentications and routes by name. Which workloads each Server selects is resolved here once.
 */

export const key = (namespace: string, name: string) => `${namespace}/${name}`;

export interface ServerInfo {
  readonly object: InputObject;
  readonly selector: Selector;
  /** `spec.port` as written: a number, or a port name. */
  readonly port: unknown;
  readonly proxyProtocol: string;
  /** v1beta3's `accessPolicy` (default `deny`); older versions have none. */
  readonly accessPolicy: string;
  readonly labels: Record<string, string>;
  /** The workloads of its namespace its podSelector selects. */
  readonly selected: readonly Workload[];
}

export interface AnalysisIndex {
  readonly objects: readonly InputObject[];
  readonly trustDomain: string;
  readonly controlPlaneNamespace: string;
  /** The cluster's default inbound policy (`proxy.defaultInboundPolicy`). */
  readonly defaultPolicy: string;
  readonly namespaces: ReadonlyMap<string, InputObject>;
  readonly workloads: readonly Workload[];
  readonly workloadsByNamespace: ReadonlyMap<string, Workload[]>;
  readonly serviceAccounts: ReadonlyMap<string, Set<string>>;
  readonly servers: ReadonlyMap<string, ServerInfo>;
  readonly serversByNamespace: ReadonlyMap<string, ServerInfo[]>;
  readonly serverAuthorizations: readonly InputObject[];
  readonly authorizationPolicies: readonly InputObject[];
  /** AuthorizationPolicies (and ServerAuthorizations) that grant something on a Server, by Server key. */
  readonly authorizationsByServer: ReadonlyMap<string, InputObject[]>;
  readonly meshTLSAuthentications: ReadonlyMap<string, InputObject>;
  readonly networkAuthentications: ReadonlyMap<string, InputObject>;
  /** HTTPRoutes and GRPCRoutes of both groups, by key. */
  readonly routes: ReadonlyMap<string, InputObject>;
  /** Routes (HTTPRoutes and GRPCRoutes, in served versions) with a parentRef to a Server, by that Server's key. */
  readonly routesByServer: ReadonlyMap<string, InputObject[]>;
  readonly services: readonly InputObject[];
  /** The workloads of a namespace a selector selects. */
  select(namespace: string, selector: Selector): Workload[];
  /** Names of the objects of one kind in a namespace (for "did you mean"). */
  namesOf(kind: string, namespace: string): string[];
}

const push = <K, V>(m: Map<K, V[]>, k: K, v: V) => {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
};

export interface ParentRef {
  readonly group: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace: string | undefined;
  readonly index: number;
  readonly port: unknown;
  readonly sectionName: unknown;
}

/** A route's parentRefs, with the CRDs' defaults: group of the route's own API group, kind `Gateway`. */
export function parentRefs(route: InputObject): ParentRef[] {
  const spec = record(route.body.spec);
  const refs = Array.isArray(spec.parentRefs) ? spec.parentRefs : [];
  return refs.map((r, index) => {
    const ref = record(r);
    return {
      group: str(ref.group) ?? route.group,
      kind: str(ref.kind) ?? 'Gateway',
      name: str(ref.name) ?? '',
      namespace: str(ref.namespace),
      index,
      port: ref.port,
      sectionName: ref.sectionName,
    };
  });
}

export const isServerParent = (p: ParentRef) => p.kind.toLowerCase() === 'server' && p.group.toLowerCase() === POLICY_GROUP;

const ROUTE_KINDS = new Set(['HTTPRoute', 'GRPCRoute']);
const isPolicyKind = (o: InputObject, kind: string) => o.kind === kind && o.group === POLICY_GROUP;

/** A targetRef's kind and group compared as the controller does: case-insensitively, empty group = core. */
export function refIs(ref: Record<string, unknown>, kind: string, group: string): boolean {
  const g = (str(ref.group) ?? '').toLowerCase();
  const want = group === '' ? ['', 'core'] : [group.toLowerCase()];
  return (str(ref.kind) ?? '').toLowerCase() === kind.toLowerCase() && want.includes(g);
}

export function buildIndex(objects: readonly InputObject[], o: { trustDomain: string; controlPlaneNamespace: string; defaultPolicy: string }): AnalysisIndex {
  const namespaces = new Map<string, InputObject>();
  const workloads: Workload[] = [];
  const workloadsByNamespace = new Map<string, Workload[]>();
  const labelIndex = new Map<string, Map<string, Workload[]>>();
  const serviceAccounts = new Map<string, Set<string>>();
  const serverObjects: InputObject[] = [];
  const serverAuthorizations: InputObject[] = [];
  const authorizationPolicies: InputObject[] = [];
  const meshTLSAuthentications = new Map<string, InputObject>();
  const networkAuthentications = new Map<string, InputObject>();
  const routes = new Map<string, InputObject>();
  const services: InputObject[] = [];
  const names = new Map<string, string[]>();

  for (const obj of objects) {
    push(names, `${obj.kind}/${obj.namespace}`, obj.name);
    if (obj.kind === 'Namespace' && obj.group === '') namespaces.set(obj.name, obj);
    else if (obj.kind === 'ServiceAccount' && obj.group === '') {
      const set = serviceAccounts.get(obj.namespace) ?? new Set<string>();
      set.add(obj.name);
      serviceAccounts.set(obj.namespace, set);
    } else if (obj.kind === 'Service' && obj.group === '') services.push(obj);
    else if (isPolicyKind(obj, 'Server')) serverObjects.push(obj);
    else if (isPolicyKind(obj, 'ServerAuthorization')) serverAuthorizations.push(obj);
    else if (isPolicyKind(obj, 'AuthorizationPolicy')) authorizationPolicies.push(obj);
    else if (isPolicyKind(obj, 'MeshTLSAuthentication')) meshTLSAuthentications.set(key(obj.namespace, obj.name), obj);
    else if (isPolicyKind(obj, 'NetworkAuthentication')) networkAuthentications.set(key(obj.namespace, obj.name), obj);
    else if (ROUTE_KINDS.has(obj.kind) && (obj.group === POLICY_GROUP || obj.group === GATEWAY_GROUP))
      routes.set(key(obj.namespace, `${obj.kind}/${obj.name}`), obj);
    else {
      const w = workloadOf(obj);
      if (!w) continue;
      workloads.push(w);
      push(workloadsByNamespace, w.namespace, w);
      let byLabel = labelIndex.get(w.namespace);
      if (!byLabel) labelIndex.set(w.namespace, (byLabel = new Map<string, Workload[]>()));
      for (const [k, v] of Object.entries(w.labels)) push(byLabel, labelKey(k, v), w);
    }
  }

  const select = (namespace: string, selector: Selector) =>
    selectFrom(selector, workloadsByNamespace.get(namespace) ?? [], labelIndex.get(namespace) ?? new Map<string, Workload[]>(), (w) => w.labels);

  const servers = new Map<string, ServerInfo>();
  const serversByNamespace = new Map<string, ServerInfo[]>();
  for (const obj of serverObjects) {
    const spec = record(obj.body.spec);
    const selector = parseSelector(spec.podSelector);
    const info: ServerInfo = {
      object: obj,
      selector,
      port: spec.port,
      proxyProtocol: str(spec.proxyProtocol) ?? 'unknown',
      accessPolicy: obj.version === 'v1beta3' ? (str(spec.accessPolicy) ?? 'deny') : 'deny',
      labels: stringMap(record(obj.body.metadata).labels),
      selected: spec.podSelector === undefined ? [] : select(obj.namespace, selector),
    };
    servers.set(key(obj.namespace, obj.name), info);
    push(serversByNamespace, obj.namespace, info);
  }

  const authorizationsByServer = new Map<string, InputObject[]>();
  for (const ap of authorizationPolicies) {
    const target = record(record(ap.body.spec).targetRef);
    if (refIs(target, 'Server', POLICY_GROUP)) push(authorizationsByServer, key(ap.namespace, str(target.name) ?? ''), ap);
    else if (refIs(target, 'Namespace', ''))
      for (const s of serversByNamespace.get(ap.namespace) ?? []) push(authorizationsByServer, key(ap.namespace, s.object.name), ap);
  }
  for (const saz of serverAuthorizations) {
    const server = record(record(saz.body.spec).server);
    const name = str(server.name);
    if (name !== undefined) push(authorizationsByServer, key(saz.namespace, name), saz);
    else {
      const sel = parseSelector(server.selector);
      // The selector is over the Servers' own metadata labels (not pod labels).
      for (const s of serversByNamespace.get(saz.namespace) ?? [])
        if (selects(sel, s.labels)) push(authorizationsByServer, key(saz.namespace, s.object.name), saz);
    }
  }

  const routesByServer = new Map<string, InputObject[]>();
  // A route in a version this release does not serve cannot be applied (LA1002): it attaches to nothing.
  for (const route of routes.values())
    if (isServed(route)) for (const p of parentRefs(route)) if (isServerParent(p)) push(routesByServer, key(p.namespace ?? route.namespace, p.name), route);

  return {
    objects,
    ...o,
    namespaces,
    workloads,
    workloadsByNamespace,
    serviceAccounts,
    servers,
    serversByNamespace,
    serverAuthorizations,
    authorizationPolicies,
    authorizationsByServer,
    meshTLSAuthentications,
    networkAuthentications,
    routes,
    routesByServer,
    services,
    select,
    namesOf: (kind, namespace) => names.get(`${kind}/${namespace}`) ?? [],
  };
}

/** A pod annotation, or the namespace's (the injector copies `config.linkerd.io/*` from it). */
export function effectiveAnnotation(index: AnalysisIndex, w: Workload, name: string): string | undefined {
  return w.annotations[name] ?? stringMap(record(index.namespaces.get(w.namespace)?.body.metadata).annotations)[name];
}

/** Whether the injector meshes a workload's pods: `meshed`, `unmeshed`, or `unknown` (its namespace is not in the input). */
export function meshStatus(index: AnalysisIndex, w: Workload): 'meshed' | 'unmeshed' | 'unknown' {
  if (w.hasProxy) return 'meshed';
  const own = w.annotations[INJECT];
  if (own !== undefined) return own === 'enabled' || own === 'ingress' ? 'meshed' : 'unmeshed';
  const ns = index.namespaces.get(w.namespace);
  if (!ns) return 'unknown';
  const value = stringMap(record(ns.body.metadata).annotations)[INJECT];
  return value === 'enabled' || value === 'ingress' ? 'meshed' : 'unmeshed';
}

/** The numbers a Server's `port` means on a workload: the number, or every TCP port of that exact name. */
export function serverPortsOn(server: ServerInfo, w: Workload): number[] {
  if (typeof server.port === 'number') return [server.port];
  if (typeof server.port !== 'string') return [];
  return [...new Set(w.ports.filter((p) => p.name === server.port).map((p) => p.number))];
}
