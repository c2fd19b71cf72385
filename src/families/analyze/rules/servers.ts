import { effectiveAnnotation, key, meshStatus, serverPortsOn, type AnalysisIndex, type ServerInfo } from '../indexes.js';
import { DEFAULT_POLICIES, PROXY_PROTOCOLS, SKIP_INBOUND_PORTS, parsePortList, portListHas } from '../mesh.js';
import { record } from '../objects.js';
import { describeWorkload, type Workload } from '../workloads.js';
import type { Report, RuleGroup } from './group.js';

const names = (ws: readonly Workload[]) => ws.map(describeWorkload).join(', ');
const portText = (p: unknown) => (typeof p === 'string' ? `"${p}"` : String(p));

/** The controller visits Servers oldest first (creationTimestamp, then name); the first to claim a pod port keeps it. */
function age(s: ServerInfo): string {
  const ts = record(s.object.body.metadata).creationTimestamp;
  return `${typeof ts === 'string' ? ts : '~'}\u0000${s.object.name}`;
}

function checkFields(s: ServerInfo, report: Report): boolean {
  const spec = record(s.object.body.spec);
  const p = spec.port;
  if (!((typeof p === 'number' && Number.isInteger(p) && p >= 1 && p <= 65535) || (typeof p === 'string' && p !== ''))) {
    report(
      'LA3007',
      s.object,
      `port ${p === undefined ? 'is missing' : `${JSON.stringify(p)} is not a port number 1-65535 or a port name`}; the admission webhook denies this Server`,
      ['spec', 'port'],
    );
    return false;
  }
  if (typeof spec.proxyProtocol === 'string' && !(PROXY_PROTOCOLS as readonly string[]).includes(spec.proxyProtocol)) {
    report(
      'LA3007',
      s.object,
      `proxyProtocol "${spec.proxyProtocol}" is not one of ${PROXY_PROTOCOLS.join(', ')} (case-sensitive); the admission webhook denies this Server`,
      ['spec', 'proxyProtocol'],
    );
  }
  if (s.object.version === 'v1beta3' && typeof spec.accessPolicy === 'string' && !(DEFAULT_POLICIES as readonly string[]).includes(spec.accessPolicy)) {
    report('LA3007', s.object, `Invalid 'accessPolicy' field: invalid mode: "${spec.accessPolicy}"; use one of ${DEFAULT_POLICIES.join(', ')}`, [
      'spec',
      'accessPolicy',
    ]);
  }
  return true;
}

function checkServer(index: AnalysisIndex, s: ServerInfo, report: Report): void {
  if (!checkFields(s, report)) return;
  const spec = record(s.object.body.spec);
  if (spec.podSelector === undefined) return; // externalWorkloadSelector: no pods to check
  if (s.selected.length === 0) {
    report(
      'LA3003',
      s.object,
      `podSelector selects no workload of namespace ${s.object.namespace} in the input, so this Server applies to nothing; match the pod template labels (or add the workloads, or --use-cluster)`,
      ['spec', 'podSelector'],
    );
    return;
  }
  const declaring = s.selected.filter((w) => serverPortsOn(s, w).some((n) => typeof s.port === 'string' || w.ports.some((p) => p.number === n)));
  const missing = s.selected.filter((w) => !declaring.includes(w));
  if (missing.length > 0) {
    if (typeof s.port === 'string') {
      report(
        'LA3001',
        s.object,
        `port ${portText(s.port)} is not the name of a TCP port of any container of ${names(missing)}, so this Server applies to none of their ports; use a declared port name (names are case-sensitive)`,
        ['spec', 'port'],
      );
    } else {
      report(
        'LA3002',
        s.object,
        `port ${portText(s.port)} is not declared by any container of ${names(missing)}; check the number, or declare the port in the pod spec`,
        ['spec', 'port'],
      );
    }
  }
  const unmeshed = s.selected.filter((w) => meshStatus(index, w) === 'unmeshed');
  if (unmeshed.length > 0) {
    report(
      'LA3005',
      s.object,
      `selects ${names(unmeshed)}, whose pods are not meshed, so nothing enforces this Server; annotate them linkerd.io/inject: enabled`,
      ['spec', 'podSelector'],
    );
  }
  const skipped: string[] = [];
  for (const w of s.selected) {
    const skip = effectiveAnnotation(index, w, SKIP_INBOUND_PORTS);
    if (skip === undefined) continue;
    const parsed = parsePortList(skip, { allowZero: true });
    if (typeof parsed === 'string') continue;
    const hit = serverPortsOn(s, w).filter((n) => portListHas(parsed, n));
    if (hit.length > 0) skipped.push(`${describeWorkload(w)} (${hit.join(', ')})`);
  }
  if (skipped.length > 0) {
    report(
      'LA3006',
      s.object,
      `port ${portText(s.port)} is in ${SKIP_INBOUND_PORTS} of ${skipped.join(', ')}: traffic to it bypasses the proxy and this Server is never enforced; remove the port from the skip list`,
      ['spec', 'port'],
    );
  }
}

/** Servers of one namespace claiming the same port of the same workload: the newer one is ignored there. */
function checkOverlaps(servers: readonly ServerInfo[], report: Report): void {
  const claims = new Map<string, ServerInfo>();
  const reported = new Set<string>();
  for (const s of [...servers].sort((a, b) => (age(a) < age(b) ? -1 : age(a) > age(b) ? 1 : 0))) {
    for (const w of s.selected) {
      for (const n of serverPortsOn(s, w)) {
        const k = `${key(w.object.kind, w.object.name)}:${n}`;
        const first = claims.get(k);
        if (!first) {
          claims.set(k, s);
          continue;
        }
        const pair = `${first.object.name}\u0000${s.object.name}`;
        if (reported.has(pair)) continue;
        reported.add(pair);
        report(
          'LA3004',
          s.object,
          `claims port ${n} of ${describeWorkload(w)}, which Server ${first.object.name} (older, or first by name) already claims; the policy controller skips this Server there ("Port already matched by another server"). Give each port one Server`,
          ['spec', 'port'],
        );
      }
    }
  }
}

export const serverRules: RuleGroup = {
  rules: [
    {
      code: 'LA3001',
      severity: 'error',
      title: 'Server port name no selected container declares',
      what: "A Server's `port` is a name, and no container or init container (native sidecars included) of the workloads it selects declares a TCP port of that exact name.",
      why: 'The policy controller resolves port names against the pod spec; an unknown name contributes nothing, silently, so the port keeps the default policy.',
      fix: 'Use the name the container declares (names are case-sensitive; a quoted number such as "8080" is a name), or the port number.',
    },
    {
      code: 'LA3002',
      severity: 'warning',
      title: 'Server port number no selected container declares',
      what: "A Server's `port` is a number that no container of the workloads it selects declares.",
      why: 'The Server applies to the number anyway, but a port missing from the pod spec is usually a typo, and the policy then guards nothing that listens.',
      fix: 'Check the number against the containers, or declare the port in the pod spec.',
    },
    {
      code: 'LA3003',
      severity: 'warning',
      title: 'podSelector selects no workload',
      what: "A Server's `podSelector` matches no workload of its namespace in the input.",
      why: 'A Server only ever selects pods of its own namespace; selecting nothing, it authorizes and restricts nothing.',
      fix: "Match the pod template's labels (not the workload's), in the Server's namespace.",
    },
    {
      code: 'LA3004',
      severity: 'error',
      title: 'Servers overlap on a pod and port',
      what: 'Two Servers select the same workload and the same port.',
      why: 'The oldest Server wins the port and the policy controller skips the others there with "Port already matched by another server; skipping": their authorizations never apply.',
      fix: 'Narrow the podSelectors or merge the Servers, so each pod port has one Server.',
    },
    {
      code: 'LA3005',
      severity: 'warning',
      title: 'Server selects unmeshed pods',
      what: 'A Server selects workloads whose pods will not get a proxy (`linkerd.io/inject` is not enabled on the pod template or its namespace).',
      why: 'Policy is enforced by the proxy of the server pod; without one, every client gets in.',
      fix: 'Annotate the workload or its namespace with `linkerd.io/inject: enabled`.',
    },
    {
      code: 'LA3006',
      severity: 'error',
      title: 'Server on a skipped inbound port',
      what: "A Server's port is listed in `config.linkerd.io/skip-inbound-ports` of a workload it selects.",
      why: 'Skipped ports bypass the proxy entirely: the Server, its authorizations and mTLS are never applied to that traffic.',
      fix: 'Remove the port from skip-inbound-ports, or drop the Server if bypassing is intended.',
    },
    {
      code: 'LA3007',
      severity: 'error',
      title: 'Invalid Server field',
      what: "A Server's `port` is not 1–65535 or a name, its `proxyProtocol` is not one of unknown, HTTP/1, HTTP/2, gRPC, opaque, TLS, or its `accessPolicy` is not a default policy.",
      why: 'The CRD schema accepts these, but the policy admission webhook denies them (and, with the webhook bypassed, the controller skips the Server as invalid).',
      fix: 'Use a valid value; the message lists them.',
    },
  ],
  check({ index }, report) {
    for (const s of index.servers.values()) checkServer(index, s, report);
    for (const list of index.serversByNamespace.values()) checkOverlaps(list, report);
  },
};
