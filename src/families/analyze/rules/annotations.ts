import {
  DEFAULT_INBOUND_POLICY,
  DEFAULT_OPAQUE_PORTS,
  DEFAULT_POLICIES,
  INJECT,
  INJECT_VALUES,
  OPAQUE_PORTS,
  SKIP_INBOUND_PORTS,
  SKIP_OUTBOUND_PORTS,
  parsePortList,
  portListHas,
  type PortEntry,
} from '../mesh.js';
import { meshStatus, type AnalysisIndex } from '../indexes.js';
import { PROXY_CONTAINER_NAME } from '../../../core/mesh/names.js';
import { record, stringMap, type InputObject, type Path } from '../objects.js';
import { describeWorkload, type Workload } from '../workloads.js';
import type { Report, RuleGroup } from './group.js';

/** Where annotations live on an object: a pod template's metadata, or the object's own. */
interface Annotated {
  readonly object: InputObject;
  readonly base: Path;
  readonly annotations: Record<string, string>;
  readonly workload?: Workload;
}

function checkValues(a: Annotated, report: Report): void {
  const at = (name: string): Path => [...a.base, 'metadata', 'annotations', name];
  const inject = a.annotations[INJECT];
  if (inject !== undefined && !(INJECT_VALUES as readonly string[]).includes(inject)) {
    report('LA2001', a.object, `${INJECT}: "${inject}" is not a value the proxy injector knows; use "enabled" (or "ingress", or "disabled")`, at(INJECT));
  }
  const policy = a.annotations[DEFAULT_INBOUND_POLICY];
  if (policy !== undefined && !(DEFAULT_POLICIES as readonly string[]).includes(policy)) {
    report(
      'LA2002',
      a.object,
      `${DEFAULT_INBOUND_POLICY}: "${policy}" is not a default policy, so the cluster default applies instead; use one of ${DEFAULT_POLICIES.join(', ')}`,
      at(DEFAULT_INBOUND_POLICY),
    );
  }
  const opaque = a.annotations[OPAQUE_PORTS];
  if (opaque !== undefined) {
    const parsed = parsePortList(opaque);
    if (typeof parsed === 'string')
      report(
        'LA2003',
        a.object,
        `${OPAQUE_PORTS}: ${parsed}; it logs "Invalid ports list" and ignores the whole list, so none of these ports is opaque to it. Write numbers and ranges, e.g. "3306,8000-8100"`,
        at(OPAQUE_PORTS),
      );
    else if (a.workload) checkDroppedDefaults(a.object, a.workload, parsed, report, at(OPAQUE_PORTS), 'this pod');
  }
  for (const name of [SKIP_INBOUND_PORTS, SKIP_OUTBOUND_PORTS]) {
    const v = a.annotations[name];
    if (v === undefined) continue;
    const parsed = parsePortList(v, { allowZero: true });
    if (typeof parsed === 'string')
      report('LA2004', a.object, `${name}: ${parsed}; proxy-init cannot use the list. Write numbers and ranges, e.g. "4222,6000-6100"`, at(name));
  }
}

/** An opaque-ports list replaces the default one: default opaque ports the pod exposes fall back to protocol detection. */
function checkDroppedDefaults(object: InputObject, w: Workload, entries: readonly PortEntry[], report: Report, path: Path, whose: string): void {
  const exposed = new Set(w.ports.filter((p) => p.container !== PROXY_CONTAINER_NAME).map((p) => p.number));
  const dropped = DEFAULT_OPAQUE_PORTS.filter((p) => exposed.has(p) && !portListHas(entries, p));
  if (dropped.length === 0) return;
  report(
    'LA2005',
    object,
    `${OPAQUE_PORTS} replaces the default opaque ports, and drops ${dropped.join(', ')} that ${whose} exposes (server-speaks-first protocols then stall in protocol detection); add ${dropped.join(',')} to the list`,
    path,
  );
}

/**
 * A Namespace's opaque-ports list reaches the meshed pods that carry none of their own: the proxy
 * injector copies it onto them, and so it drops the defaults they expose just as their own would.
 */
function checkNamespaceDroppedDefaults(index: AnalysisIndex, report: Report): void {
  for (const ns of index.namespaces.values()) {
    const value = stringMap(record(ns.body.metadata).annotations)[OPAQUE_PORTS];
    if (value === undefined) continue;
    const parsed = parsePortList(value);
    if (typeof parsed === 'string') continue;
    for (const w of index.workloadsByNamespace.get(ns.name) ?? []) {
      if (w.annotations[OPAQUE_PORTS] !== undefined || meshStatus(index, w) !== 'meshed') continue;
      checkDroppedDefaults(ns, w, parsed, report, ['metadata', 'annotations', OPAQUE_PORTS], `${describeWorkload(w)} of this namespace`);
    }
  }
}

export const annotationRules: RuleGroup = {
  rules: [
    {
      code: 'LA2001',
      severity: 'error',
      title: 'Invalid linkerd.io/inject value',
      what: 'The `linkerd.io/inject` annotation has a value other than `enabled`, `ingress` or `disabled` (for example `true` or `Enabled`).',
      why: 'The proxy injector acts only on `enabled` and `ingress`; any other value means the pods start without a proxy, so no Linkerd policy or mTLS applies to them.',
      fix: 'Write `linkerd.io/inject: enabled` (or `ingress` for an ingress controller, `disabled` to opt out).',
    },
    {
      code: 'LA2002',
      severity: 'error',
      title: 'Invalid config.linkerd.io/default-inbound-policy value',
      what: 'The default-inbound-policy annotation is not one of all-unauthenticated, all-authenticated, cluster-unauthenticated, cluster-authenticated, deny, audit.',
      why: 'The policy controller logs "Invalid default policy annotation value" and uses the cluster default instead, which is usually more open than what was meant.',
      fix: 'Use one of the six values, spelled exactly (lower case).',
    },
    {
      code: 'LA2003',
      severity: 'error',
      title: 'Invalid opaque-ports annotation',
      what: 'An entry of `config.linkerd.io/opaque-ports` is not a port number 1–65535 or an increasing range `a-b`. Port names (e.g. `mysql`) are entries of that kind too, on a pod template or a Namespace alike: the proxy injector resolves them, but the policy controller accepts no port names.',
      why: 'One bad entry makes the policy controller log "Invalid ports list" and ignore the whole annotation, so the default servers it gives those ports use protocol detection, not opaque.',
      fix: 'Write comma-separated numbers and ranges, e.g. `3306,8000-8100` (a port name: the number of the container port it names).',
    },
    {
      code: 'LA2004',
      severity: 'error',
      title: 'Invalid skip-inbound-ports or skip-outbound-ports annotation',
      what: 'An entry of `config.linkerd.io/skip-inbound-ports` or `skip-outbound-ports` is not a port number 0–65535 or an increasing range.',
      why: 'proxy-init cannot build its iptables rules from the list, so the pod does not start as intended.',
      fix: 'Write comma-separated numbers and ranges, e.g. `4222,6000-6100`.',
    },
    {
      code: 'LA2005',
      severity: 'warning',
      title: 'opaque-ports override drops default opaque ports',
      what: "A pod's `config.linkerd.io/opaque-ports`, or its Namespace's when the pod has none of its own and is meshed (the proxy injector copies the namespace's onto it), does not include a default opaque port (25, 587, 3306, 4444, 5432, 6379, 9300, 11211) that one of its containers exposes.",
      why: 'The annotation replaces the default list, it does not add to it: a server-speaks-first protocol such as MySQL or SMTP on a dropped port waits out protocol detection (10 s) and fails.',
      fix: 'Add the default ports the pod exposes to the annotation.',
    },
  ],
  check({ index }, report) {
    for (const w of index.workloads) {
      checkValues({ object: w.object, base: w.templatePath, annotations: w.annotations, workload: w }, report);
    }
    for (const o of index.objects) {
      if (o.group !== '' || (o.kind !== 'Namespace' && o.kind !== 'Service')) continue;
      checkValues({ object: o, base: [], annotations: stringMap(record(o.body.metadata).annotations) }, report);
    }
    checkNamespaceDroppedDefaults(index, report);
  },
};
