import { effectiveAnnotation, key, meshStatus, refIs, serverPortsOn, type AnalysisIndex, type ServerInfo } from '../indexes.js';
import { DEFAULT_INBOUND_POLICY, DEFAULT_POLICIES, POLICY_GROUP, UNAUTHENTICATED_POLICIES } from '../mesh.js';
import { didYouMean } from '../nearest.js';
import { list, record, str, type InputObject } from '../objects.js';
import { describeWorkload, type Probe } from '../workloads.js';
import type { Report, RuleGroup } from './group.js';
import { PROXY_CONTAINER_NAME } from '../../../core/mesh/names.js';

/** Whether an authorization lets clients without an identity in (the kubelet's probes are such clients). */
function allowsUnauthenticated(a: InputObject): boolean {
  const spec = record(a.body.spec);
  if (a.kind === 'ServerAuthorization') return record(spec.client).unauthenticated === true;
  const refs = list(spec.requiredAuthenticationRefs).map(record);
  return !refs.some((r) => refIs(r, 'MeshTLSAuthentication', POLICY_GROUP) || refIs(r, 'ServiceAccount', ''));
}

const routeKey = (namespace: string, kind: string, name: string) => `${namespace}/${kind.toLowerCase()}/${name}`;

/** Route-level AuthorizationPolicies, by route (namespace, kind, name). */
function policiesByRoute(index: AnalysisIndex): Map<string, InputObject[]> {
  const out = new Map<string, InputObject[]>();
  for (const ap of index.authorizationPolicies) {
    const t = record(record(ap.body.spec).targetRef);
    const k = routeKey(ap.namespace, str(t.kind) ?? '', str(t.name) ?? '');
    out.set(k, [...(out.get(k) ?? []), ap]);
  }
  return out;
}

/** HTTPRoutes replace the probe route (GRPCRoutes do not), and opaque, TLS and gRPC Servers have none: there, probes need an authorization. */
function probeRouteLost(s: ServerInfo, routes: readonly InputObject[]): string | undefined {
  if (['opaque', 'TLS', 'gRPC'].includes(s.proxyProtocol)) return `its proxyProtocol is ${s.proxyProtocol}`;
  const http = routes.filter((r) => r.kind === 'HTTPRoute');
  if (http.length > 0) return `HTTPRoutes are attached to it (${http.map((r) => r.name).join(', ')})`;
  return undefined;
}

/** Why a probe gets no probe route whatever its port's server: the controller recognises httpGet probes over plain HTTP only. */
export function probeWithoutRoute(p: Probe): string | undefined {
  if (p.type === 'grpc') return 'it is a gRPC probe, which gets no probe route';
  if (p.type === 'https') return 'it uses scheme HTTPS, which gets no probe route';
  return undefined;
}

const KUBELET_ADVICE =
  "the kubelet's probes get 403 and the pod never becomes ready; authorize unauthenticated clients (e.g. a NetworkAuthentication of the node networks) or probe another port";

function checkServer(index: AnalysisIndex, s: ServerInfo, byRoute: ReadonlyMap<string, InputObject[]>, report: Report): void {
  const k = key(s.object.namespace, s.object.name);
  const authorizations = index.authorizationsByServer.get(k) ?? [];
  const routes = index.routesByServer.get(k) ?? [];
  const routeAuthz = routes.flatMap((r) => byRoute.get(routeKey(r.namespace, r.kind, r.name)) ?? []);
  const valid = (DEFAULT_POLICIES as readonly string[]).includes(s.accessPolicy);
  const denies = s.accessPolicy === 'deny' || !valid;
  if (denies && authorizations.length === 0 && routeAuthz.length === 0) {
    const policy = valid ? 'accessPolicy is deny' : `accessPolicy "${s.accessPolicy}" is not a default policy (the controller grants nothing for it)`;
    report(
      'LA4001',
      s.object,
      `${policy} and no AuthorizationPolicy or ServerAuthorization targets this Server, so every request to port ${String(s.port)} is refused; add an AuthorizationPolicy for its clients`,
      ['spec'],
    );
  }
  if (!denies && UNAUTHENTICATED_POLICIES.has(s.accessPolicy)) return;
  if ([...authorizations, ...routeAuthz].some(allowsUnauthenticated)) return;
  const lost = probeRouteLost(s, routes);
  for (const w of s.selected) {
    // A workload without a proxy has no inbound policy: its probes are not refused.
    if (meshStatus(index, w) === 'unmeshed') continue;
    const ports = new Set(serverPortsOn(s, w));
    let reason: string | undefined;
    const probe = w.probes.find((p) => ports.has(p.port) && (reason = probeWithoutRoute(p) ?? lost) !== undefined);
    if (!probe || reason === undefined) continue;
    report(
      'LA4002',
      s.object,
      `the ${probe.kind} of ${describeWorkload(w)} (container ${probe.container}) uses port ${probe.port}, which this Server guards, and ${reason}: ${KUBELET_ADVICE}`,
      ['spec', 'port'],
    );
  }
}

/**
 * Ports no Server claims get the workload's default policy. Under deny, declared ports are
 * unreachable (LA4001); under any policy that does not let unauthenticated clients in, gRPC and
 * HTTPS probes there fail, having no probe route (LA4002).
 */
function checkDefaultPolicy(index: AnalysisIndex, report: Report): void {
  for (const w of index.workloads) {
    if (meshStatus(index, w) === 'unmeshed') continue;
    // An invalid annotation falls back to the cluster default, as the controller does.
    const annotated = effectiveAnnotation(index, w, DEFAULT_INBOUND_POLICY);
    const policy = annotated !== undefined && (DEFAULT_POLICIES as readonly string[]).includes(annotated) ? annotated : index.defaultPolicy;
    if (UNAUTHENTICATED_POLICIES.has(policy)) continue;
    const source = annotated === policy ? DEFAULT_INBOUND_POLICY : "the cluster's proxy.defaultInboundPolicy";
    const claimed = new Set((index.serversByNamespace.get(w.namespace) ?? []).filter((s) => s.selected.includes(w)).flatMap((s) => serverPortsOn(s, w)));
    const routeless = w.probes.filter((p) => p.container !== PROXY_CONTAINER_NAME && !claimed.has(p.port) && probeWithoutRoute(p) !== undefined);
    for (const probe of routeless)
      report(
        'LA4002',
        w.object,
        `the ${probe.kind} of ${describeWorkload(w)} (container ${probe.container}) uses port ${probe.port}, which no Server covers, so the default inbound policy ${policy} (${source}) applies, and ${probeWithoutRoute(probe) ?? ''}: ${KUBELET_ADVICE}`,
        probe.path,
      );
    if (policy !== 'deny') continue;
    const open = [...new Set(w.ports.filter((p) => p.container !== PROXY_CONTAINER_NAME && !claimed.has(p.number)).map((p) => p.number))];
    if (open.length === 0) continue;
    const them = open.length > 1 ? 'them' : 'it';
    const probed = open.some((n) => w.probes.some((p) => p.port === n && p.type === 'http'));
    const reach = routeless.some((p) => open.includes(p.port))
      ? `so nothing reaches ${them} (gRPC and HTTPS probes get no probe route)`
      : probed
        ? `so only the kubelet's HTTP probes reach ${them}`
        : `so nothing reaches ${them}`;
    report(
      'LA4001',
      w.object,
      `the default inbound policy is deny (${source}) and no Server covers port${open.length > 1 ? 's' : ''} ${open.join(', ')} of ${describeWorkload(w)}, ${reach}; add a Server and an AuthorizationPolicy for its clients`,
      [...w.templatePath, 'metadata', 'annotations', DEFAULT_INBOUND_POLICY],
    );
  }
}

const SUPPORTED_AUTHN = [
  ['MeshTLSAuthentication', POLICY_GROUP],
  ['NetworkAuthentication', POLICY_GROUP],
  ['ServiceAccount', ''],
] as const;

function checkPolicy(index: AnalysisIndex, ap: InputObject, report: Report): void {
  const spec = record(ap.body.spec);
  const target = record(spec.targetRef);
  const name = str(target.name) ?? '';
  const ns = ap.namespace;
  if (refIs(target, 'Server', POLICY_GROUP)) {
    if (!index.servers.has(key(ns, name)))
      report(
        'LA4003',
        ap,
        `targetRef names Server "${name}", which is not in namespace ${ns}${didYouMean(name, index.namesOf('Server', ns))}; this policy authorizes nothing`,
        ['spec', 'targetRef', 'name'],
      );
  } else if (refIs(target, 'Namespace', '')) {
    if (name !== ns)
      report('LA4007', ap, `cannot target another namespace: ${name}; a Namespace targetRef must name the policy's own namespace (${ns})`, [
        'spec',
        'targetRef',
        'name',
      ]);
  } else if (
    refIs(target, 'HTTPRoute', POLICY_GROUP) ||
    refIs(target, 'HTTPRoute', 'gateway.networking.k8s.io') ||
    refIs(target, 'GRPCRoute', 'gateway.networking.k8s.io')
  ) {
    const kind = str(target.kind) ?? '';
    const routeKind = kind.toLowerCase() === 'grpcroute' ? 'GRPCRoute' : 'HTTPRoute';
    if (!index.routes.has(key(ns, `${routeKind}/${name}`))) {
      report(
        'LA4003',
        ap,
        `targetRef names ${routeKind} "${name}", which is not in namespace ${ns}${didYouMean(name, index.namesOf(routeKind, ns))}; this policy authorizes nothing`,
        ['spec', 'targetRef', 'name'],
      );
    }
  } else {
    const g = str(target.group) ?? '';
    report(
      'LA4007',
      ap,
      `unsupported authorization target type: ${str(target.kind) ?? ''}${g ? `.${g}` : ''}; target a Server, a Namespace, an HTTPRoute or a GRPCRoute`,
      ['spec', 'targetRef'],
    );
  }
  const refs = list(spec.requiredAuthenticationRefs).map(record);
  const count = (kind: string, group: string) => refs.filter((r) => refIs(r, kind, group)).length;
  const problems: string[] = [];
  if (count('MeshTLSAuthentication', POLICY_GROUP) > 1) problems.push('only a single MeshTLSAuthentication may be set');
  if (count('ServiceAccount', '') > 1) problems.push('only a single ServiceAccount may be set');
  if (count('MeshTLSAuthentication', POLICY_GROUP) > 0 && count('ServiceAccount', '') > 0)
    problems.push('a MeshTLSAuthentication and ServiceAccount may not be set together');
  if (count('NetworkAuthentication', POLICY_GROUP) > 1) problems.push('only a single NetworkAuthentication may be set');
  const other = refs.filter((r) => !SUPPORTED_AUTHN.some(([k, g]) => refIs(r, k, g)));
  if (other.length > 0)
    problems.push(`unsupported authentication kind(s): ${other.map((r) => `${str(r.kind) ?? ''}${str(r.group) ? `.${str(r.group)}` : ''}`).join(', ')}`);
  for (const p of problems) report('LA4007', ap, `${p}; the admission webhook denies this AuthorizationPolicy`, ['spec', 'requiredAuthenticationRefs']);
  refs.forEach((r, i) => {
    const refName = str(r.name) ?? '';
    const refNs = str(r.namespace) ?? ns;
    for (const kind of ['MeshTLSAuthentication', 'NetworkAuthentication'] as const) {
      if (!refIs(r, kind, POLICY_GROUP)) continue;
      const table = kind === 'MeshTLSAuthentication' ? index.meshTLSAuthentications : index.networkAuthentications;
      if (!table.has(key(refNs, refName))) {
        report(
          'LA4004',
          ap,
          `could not find ${kind} ${refName} in namespace ${refNs}${didYouMean(refName, index.namesOf(kind, refNs))}: the policy controller ignores this AuthorizationPolicy (it fails closed)`,
          ['spec', 'requiredAuthenticationRefs', i, 'name'],
        );
      }
    }
  });
}

function checkServerAuthorization(index: AnalysisIndex, saz: InputObject, report: Report): void {
  const server = record(record(saz.body.spec).server);
  const name = str(server.name);
  if (name !== undefined && !index.servers.has(key(saz.namespace, name))) {
    report(
      'LA4006',
      saz,
      `server.name "${name}" is not a Server in namespace ${saz.namespace}${didYouMean(name, index.namesOf('Server', saz.namespace))}; this ServerAuthorization authorizes nothing`,
      ['spec', 'server', 'name'],
    );
  } else if (
    name === undefined &&
    !(index.serversByNamespace.get(saz.namespace) ?? []).some((s) => (index.authorizationsByServer.get(key(saz.namespace, s.object.name)) ?? []).includes(saz))
  ) {
    report(
      'LA4006',
      saz,
      `server.selector selects no Server in namespace ${saz.namespace} (it matches Server labels, not pod labels); this ServerAuthorization authorizes nothing`,
      ['spec', 'server'],
    );
  }
}

export const authorizationRules: RuleGroup = {
  rules: [
    {
      code: 'LA4001',
      severity: 'warning',
      title: 'Deny with nothing authorizing it',
      what: 'A Server whose accessPolicy is deny (the default) has no AuthorizationPolicy or ServerAuthorization, or a workload whose default inbound policy is deny (its `config.linkerd.io/default-inbound-policy`, else the cluster default) has declared ports that no Server covers.',
      why: 'Under deny, a port with no authorization refuses every connection (only plain-HTTP httpGet probes of the kubelet still get a route): the application cannot be reached.',
      fix: 'Add an AuthorizationPolicy (with a MeshTLSAuthentication of the clients) targeting the Server, or a Server for the uncovered port.',
    },
    {
      code: 'LA4002',
      severity: 'error',
      title: 'Probes on a denied port with nothing authorizing the kubelet',
      what: 'A workload probes a port that does not let unauthenticated clients in and gives the probe no probe route: an httpGet probe on a Server with HTTPRoutes attached or a proxyProtocol of opaque, TLS or gRPC; or a gRPC probe or an HTTPS (`scheme: HTTPS`) probe, which never get a probe route, on such a Server or on a port no Server covers whose default inbound policy is deny, all-authenticated or cluster-authenticated.',
      why: 'The kubelet has no mesh identity; without the probe route its probes get 403, so the pod is never ready (or is restarted).',
      fix: 'Authorize unauthenticated clients from the node networks for that Server or the probe paths, or probe a port without such a Server.',
    },
    {
      code: 'LA4003',
      severity: 'error',
      title: 'AuthorizationPolicy targetRef to nothing',
      what: "An AuthorizationPolicy's targetRef names a Server or route that is not in its namespace.",
      why: 'A policy for a missing target has no effect: the clients it was meant to allow stay denied.',
      fix: 'Name an existing target; the message suggests the nearest name when it looks like a typo.',
    },
    {
      code: 'LA4004',
      severity: 'error',
      title: 'Authentication ref to nothing',
      what: 'A requiredAuthenticationRef names a MeshTLSAuthentication or NetworkAuthentication that does not exist.',
      why: 'The policy controller logs "could not find MeshTLSAuthentication …" and ignores the whole AuthorizationPolicy (fail-closed): nobody it names is allowed.',
      fix: 'Create the authentication, or correct the name or namespace of the reference.',
    },
    {
      code: 'LA4006',
      severity: 'error',
      title: 'ServerAuthorization for no Server',
      what: "A ServerAuthorization's server.name names no Server of its namespace, or its server.selector matches no Server's labels.",
      why: 'It authorizes nothing; the clients it was meant to allow are denied.',
      fix: 'Name an existing Server, or select Server labels (not pod labels).',
    },
    {
      code: 'LA4007',
      severity: 'error',
      title: 'Unsupported AuthorizationPolicy target or authentications',
      what: 'An AuthorizationPolicy targets an unsupported kind or another namespace, or combines authentications the controller refuses (two MeshTLSAuthentications, MeshTLS with ServiceAccount, an unknown kind).',
      why: 'The admission webhook denies the object; with the webhook bypassed, the controller drops it.',
      fix: 'Target a Server, the own Namespace, an HTTPRoute or a GRPCRoute; use at most one MeshTLSAuthentication or ServiceAccount and one NetworkAuthentication.',
    },
  ],
  check({ index }, report) {
    const byRoute = policiesByRoute(index);
    for (const s of index.servers.values()) checkServer(index, s, byRoute, report);
    checkDefaultPolicy(index, report);
    for (const ap of index.authorizationPolicies) checkPolicy(index, ap, report);
    for (const saz of index.serverAuthorizations) checkServerAuthorization(index, saz, report);
  },
};
