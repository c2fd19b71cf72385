import { BlockList, isIP } from 'node:net';
import { refIs, type AnalysisIndex } from '../indexes.js';
import { didYouMean } from '../nearest.js';
import { list, record, str, type InputObject, type Path } from '../objects.js';
import type { Report, RuleGroup } from './group.js';

const DNS_LIKE = /^(\*|[a-z0-9]([-a-z0-9]*[a-z0-9])?)(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const SA_IDENTITY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)\.([a-z0-9]([-a-z0-9]*[a-z0-9])?)\.serviceaccount\.identity\.([a-z0-9]([-a-z0-9]*[a-z0-9])?)\.(.+)$/;

/** Whether a namespace's ServiceAccounts are known: its Namespace or any ServiceAccount of it is in the input. */
const knowsNamespace = (index: AnalysisIndex, ns: string) => index.namespaces.has(ns) || index.serviceAccounts.has(ns);

/** Every namespace has a `default` ServiceAccount, created by Kubernetes. */
function hasServiceAccount(index: AnalysisIndex, ns: string, name: string): boolean {
  return name === 'default' || (index.serviceAccounts.get(ns)?.has(name) ?? false);
}

function checkServiceAccount(index: AnalysisIndex, o: InputObject, name: string, ns: string, path: Path, report: Report, what: string): void {
  if (!knowsNamespace(index, ns) || hasServiceAccount(index, ns, name)) return;
  report(
    'LA5005',
    o,
    `${what} names ServiceAccount ${name} in namespace ${ns}, which is not in the input${didYouMean(name, index.serviceAccounts.get(ns) ?? [])}; no pod can have that identity`,
    path,
  );
}

function checkIdentity(index: AnalysisIndex, o: InputObject, id: string, path: Path, report: Report): void {
  if (id === '*' || id.startsWith('*.')) return;
  if (id.startsWith('spiffe://')) {
    if (!/^spiffe:\/\/[a-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(id))
      report('LA5002', o, `id ${id} is invalid: not a valid SPIFFE id; the admission webhook denies this MeshTLSAuthentication`, path);
    return;
  }
  if (!DNS_LIKE.test(id)) {
    report('LA5002', o, `id ${id} is invalid: identity must be a valid SPIFFE id or a DNS SAN; the admission webhook denies this MeshTLSAuthentication`, path);
    return;
  }
  const expected = `<sa>.<ns>.serviceaccount.identity.${index.controlPlaneNamespace}.${index.trustDomain}`;
  const m = SA_IDENTITY.exec(id);
  if (!m) {
    report(
      'LA5003',
      o,
      `identity ${id} is not of the form ${expected}, so no meshed pod presents it; use that form, or an identityRef to the ServiceAccount`,
      path,
    );
    return;
  }
  const [sa, ns, cp, td] = [m[1] ?? '', m[3] ?? '', m[5] ?? '', m[7] ?? ''];
  if (cp !== index.controlPlaneNamespace || td !== index.trustDomain) {
    report(
      'LA5003',
      o,
      `identity ${id} names control plane namespace ${cp} and trust domain ${td}, but identities here end in .${index.controlPlaneNamespace}.${index.trustDomain}; use ${sa}.${ns}.serviceaccount.identity.${index.controlPlaneNamespace}.${index.trustDomain}`,
      path,
    );
    return;
  }
  if (knowsNamespace(index, ns) && !hasServiceAccount(index, ns, sa)) {
    report(
      'LA5003',
      o,
      `identity ${id} names ServiceAccount ${sa} in namespace ${ns}, which is not in the input${didYouMean(sa, index.serviceAccounts.get(ns) ?? [])}; no pod presents it`,
      path,
    );
  }
}

function checkMeshTLS(index: AnalysisIndex, m: InputObject, report: Report): void {
  const spec = record(m.body.spec);
  const ids = list(spec.identities);
  const refs = list(spec.identityRefs);
  if (ids.length === 0 && refs.length === 0) {
    report(
      'LA5001',
      m,
      'lists no identities and no identityRefs, so it authenticates no client (the controller reports "No identities configured"); list the clients\' identities or ServiceAccounts',
      ['spec'],
    );
    return;
  }
  ids.forEach((id, i) => checkIdentity(index, m, String(id), ['spec', 'identities', i], report));
  refs.forEach((r, i) => {
    const ref = record(r);
    if (refIs(ref, 'ServiceAccount', ''))
      checkServiceAccount(index, m, str(ref.name) ?? '', str(ref.namespace) ?? m.namespace, ['spec', 'identityRefs', i], report, 'identityRef');
  });
}

interface Network {
  readonly address: string;
  readonly prefix: number;
  readonly family: 'ipv4' | 'ipv6';
}

function parseNetwork(s: string): Network | undefined {
  const [address = '', prefixText, extra] = s.split('/');
  const v = isIP(address);
  if (v === 0 || extra !== undefined) return undefined;
  const max = v === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : /^\d+$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= max)) return undefined;
  return { address, prefix, family: v === 4 ? 'ipv4' : 'ipv6' };
}

/** Whether network `outer` holds every address of `inner`. */
function contains(outer: Network, inner: Network): boolean {
  if (outer.family !== inner.family || inner.prefix < outer.prefix) return false;
  const b = new BlockList();
  b.addSubnet(outer.address, outer.prefix, outer.family);
  return b.check(inner.address, inner.family);
}

function checkNetworks(o: InputObject, networks: unknown[], base: Path, report: Report): void {
  networks.forEach((n, i) => {
    const net = record(n);
    const cidr = str(net.cidr) ?? '';
    const parsed = parseNetwork(cidr);
    if (!parsed) {
      report('LA5004', o, `cidr "${cidr}" is not an IP network (such as 10.0.0.0/8) or address; the admission webhook denies this ${o.kind}`, [
        ...base,
        i,
        'cidr',
      ]);
      return;
    }
    list(net.except).forEach((e, j) => {
      const ex = String(e);
      const pe = parseNetwork(ex);
      if (!pe) report('LA5004', o, `except "${ex}" of cidr ${cidr} is not an IP network or address`, [...base, i, 'except', j]);
      else if (contains(pe, parsed)) report('LA5004', o, `cidr '${cidr}' is completely negated by exception '${ex}'`, [...base, i, 'except', j]);
      else if (!contains(parsed, pe)) report('LA5004', o, `cidr '${cidr}' does not include exception '${ex}'`, [...base, i, 'except', j]);
    });
  });
}

export const authenticationRules: RuleGroup = {
  rules: [
    {
      code: 'LA5001',
      severity: 'error',
      title: 'Empty MeshTLSAuthentication',
      what: 'A MeshTLSAuthentication has neither identities nor identityRefs (or both lists are empty).',
      why: 'It matches no client; every AuthorizationPolicy requiring it allows nobody.',
      fix: "List the clients' identities, or identityRefs to their ServiceAccounts or Namespaces.",
    },
    {
      code: 'LA5002',
      severity: 'error',
      title: 'Invalid identity',
      what: 'An identity of a MeshTLSAuthentication is neither a SPIFFE id nor a DNS-like name (lower-case labels, optionally starting with `*`).',
      why: 'The admission webhook denies the object ("id … is invalid").',
      fix: 'Write the identity as `<sa>.<ns>.serviceaccount.identity.<control-plane-ns>.<trust-domain>`, `*`, or `*.<suffix>`.',
    },
    {
      code: 'LA5003',
      severity: 'warning',
      title: 'Identity no meshed pod presents',
      what: 'An identity is not of the form `<sa>.<ns>.serviceaccount.identity.<control-plane-ns>.<trust-domain>`, uses another control plane namespace or trust domain, or names a ServiceAccount that is not in the input.',
      why: 'Proxies present exactly that form, so any other string authenticates nobody (a typo is indistinguishable from a deliberate denial).',
      fix: 'Use the form with the right ServiceAccount, or an identityRef of kind ServiceAccount, which cannot be mistyped the same way.',
    },
    {
      code: 'LA5004',
      severity: 'error',
      title: 'Invalid NetworkAuthentication CIDR',
      what: 'A `cidr` or `except` entry is not an IP network or address, an exception is outside its network, or an exception covers the whole network.',
      why: 'The admission webhook denies such an object, and with it bypassed the controller cannot use the networks.',
      fix: 'Write networks such as `10.0.0.0/8` or `fd00::/8`, with exceptions inside them.',
    },
    {
      code: 'LA5005',
      severity: 'warning',
      title: 'ServiceAccount reference to no ServiceAccount',
      what: 'An identityRef, a requiredAuthenticationRef or a ServerAuthorization serviceAccount names a ServiceAccount that is not in the input, in a namespace whose objects are.',
      why: 'Nothing checks that the ServiceAccount exists; no pod runs as it, so the reference authorizes nobody.',
      fix: 'Name the ServiceAccount the client pods run as (`spec.serviceAccountName`).',
    },
  ],
  check({ index }, report) {
    for (const m of index.meshTLSAuthentications.values()) checkMeshTLS(index, m, report);
    for (const n of index.networkAuthentications.values()) {
      const networks = list(record(n.body.spec).networks);
      if (networks.length === 0) report('LA5004', n, 'at least one network must be specified', ['spec']);
      checkNetworks(n, networks, ['spec', 'networks'], report);
    }
    for (const saz of index.serverAuthorizations) {
      const client = record(record(saz.body.spec).client);
      checkNetworks(saz, list(client.networks), ['spec', 'client', 'networks'], report);
      const meshTLS = record(client.meshTLS);
      list(meshTLS.identities).forEach((id, i) => checkIdentity(index, saz, String(id), ['spec', 'client', 'meshTLS', 'identities', i], report));
      list(meshTLS.serviceAccounts).forEach((sa, i) => {
        const r = record(sa);
        checkServiceAccount(
          index,
          saz,
          str(r.name) ?? '',
          str(r.namespace) ?? saz.namespace,
          ['spec', 'client', 'meshTLS', 'serviceAccounts', i],
          report,
          'serviceAccounts entry',
        );
      });
    }
    for (const ap of index.authorizationPolicies) {
      list(record(ap.body.spec).requiredAuthenticationRefs).forEach((r, i) => {
        const ref = record(r);
        if (refIs(ref, 'ServiceAccount', ''))
          checkServiceAccount(
            index,
            ap,
            str(ref.name) ?? '',
            str(ref.namespace) ?? ap.namespace,
            ['spec', 'requiredAuthenticationRefs', i],
            report,
            'requiredAuthenticationRef',
          );
      });
    }
  },
};
