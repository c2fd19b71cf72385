import { UserError } from '../errors.js';
import type { KubeSelection } from '../kube/kubeconfig.js';
import { fingerprintSha256, type x509 } from '../pki/index.js';
import { goDuration } from '../parse/goDuration.js';
import { parseBundle } from '../pki/parseBundle.js';
import { certificateReport, type CertificateReport } from './certificateReport.js';
import { readIdentityObjects, type IdentityObjects } from './identityObjects.js';
import { issuerCertificatePem } from './inspect.js';
import { podTrustReader, type PodTrust } from './podTrust.js';
import { assessPeers, type PeerTrust, type TrustPeerSource } from './peers.js';
import { ISSUER_SECRET, LINKERD_CONFIG, TRUST_BUNDLE_KEY, TRUST_ROOTS_CONFIGMAP } from '../mesh/names.js';

/*
 * Where a trust-anchor rotation stands, derived from the cluster alone (no local state), so a
 * half-done rotation is resumed by asking again. The newest anchor of the bundle is the one
 * with the latest NotBefore: add-anchor brings it, the issuer moves to it, the others go.
 */

export type RotationStage =
  /** One anchor; every pod trusts exactly it; the issuer chains to it. */
  | 'steady'
  /** The bundle has a new anchor; some pods were started before it and must be restarted. */
  | 'bundle-distributed'
  /** Every pod trusts the whole bundle; the issuer still chains to an older anchor. */
  | 'pods-restarted'
  /** The issuer chains to the newest anchor; older anchors can be removed. */
  | 'issuer-switched'
  /** The bundle was pruned; some pods still carry the old, larger bundle until restarted. */
  | 'anchor-removed'
  /** The places the anchors live disagree: a step's manifest was applied only in part. */
  | 'inconsistent'
  /** The issuer does not chain to the bundle, or some pods do not trust its anchor: identity is broken. */
  | 'issuer-untrusted';

export type AnchorRole = 'current' | 'new' | 'old';

export interface AnchorReport extends CertificateReport {
  role: AnchorRole;
  /** The issuer chains to this anchor. */
  signsIssuer: boolean;
}

/** Pods of one workload that do not trust the bundle as it is now. */
export interface StaleWorkload {
  namespace: string;
  workload: string;
  pods: string[];
  /** Bundle anchors (sha256) these pods lack; empty when they only carry extra, removed ones. */
  missing: string[];
  /** Their bundle is not readable (a control-plane pod started with another ConfigMap). */
  unknown: boolean;
}

export interface RotationState {
  namespace: string;
  stage: RotationStage;
  /** Why the stage is what it is, in one line. */
  summary: string;
  scheme: 'linkerd.io/tls' | 'kubernetes.io/tls';
  externalCA: boolean;
  anchors: AnchorReport[];
  issuer?: CertificateReport;
  pods: { meshed: number; current: number; stale: StaleWorkload[] };
  /** Commands to run next, in order. */
  next: string[];
  warnings: string[];
  /** Clusters linked to this one (trust peers), judged against the newest anchor; absent when no source was asked. */
  peers?: PeerTrust[];
}

/** How long each request to a peer cluster may take. */
export const PEER_TIMEOUT_MS = 10_000;

/** Every peer of every source, read through the local cluster. */
export async function readPeers(
  sources: readonly TrustPeerSource[],
  selection: KubeSelection,
  env?: NodeJS.ProcessEnv,
): Promise<import('./peers.js').PeerFacts[]> {
  return (await Promise.all(sources.map((s) => s.read(selection, { timeoutMs: PEER_TIMEOUT_MS, env })))).flat();
}

/** The anchors a peer must trust and chain to at this point of the rotation: the newest one. */
export function requiredOfPeers(facts: Pick<RotationFacts, 'bundleSha' | 'newest'>): string[] {
  return facts.newest === undefined ? [...facts.bundleSha] : [facts.newest];
}

/** The parsed facts the stage and the steps are computed from. */
export interface RotationFacts {
  objects: IdentityObjects;
  bundleText: string;
  bundle: x509.X509Certificate[];
  bundleSha: string[];
  issuer?: x509.X509Certificate;
  /** sha256 of the anchor the issuer chains to, if any. */
  issuerAnchor?: string;
  newest?: string;
  pods: PodTrust[];
  inSync: boolean;
}

/**
 * The anchor that signed the issuer, by name and signature alone: an expired issuer or anchor
 * still shows where it belongs (expiry is reported separately), so a rotation can start from
 * expired certificates.
 */
async function signingAnchor(issuer: x509.X509Certificate, bundle: readonly x509.X509Certificate[], sha: readonly string[]): Promise<string | undefined> {
  for (let i = 0; i < bundle.length; i++) {
    const anchor = bundle[i];
    if (anchor === undefined || anchor.subject !== issuer.issuer) continue;
    if (fingerprintSha256(anchor) === fingerprintSha256(issuer)) return sha[i];
    const ok = await issuer.verify({ publicKey: anchor.publicKey, signatureOnly: true }).catch(() => false);
    if (ok) return sha[i];
  }
  return undefined;
}

const trimEq = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && a.trim() === b.trim();

/** The parsed bundle, issuer and pods; structural only (validity is judged by rotationState). */
export async function rotationFacts(objects: IdentityObjects, namespace: string): Promise<RotationFacts> {
  const source = `ConfigMap ${namespace}/${TRUST_ROOTS_CONFIGMAP}`;
  const bundleText = objects.trustRoots?.data?.[TRUST_BUNDLE_KEY] ?? objects.configAnchors;
  if (bundleText === undefined) throw new UserError(`${source} not found, and linkerd-config has no identityTrustAnchorsPEM`);
  const bundle = parseBundle(bundleText, source).map((e) => e.certificate);
  const bundleSha = bundle.map(fingerprintSha256);
  const issuerPem = objects.issuer ? issuerCertificatePem(objects.issuer) : undefined;
  const issuer = issuerPem === undefined ? undefined : parseBundle(issuerPem, `Secret ${namespace}/${ISSUER_SECRET}`)[0]?.certificate;
  const issuerAnchor = issuer ? await signingAnchor(issuer, bundle, bundleSha) : undefined;
  let newest: string | undefined;
  let newestAt = -Infinity;
  bundle.forEach((c, i) => {
    if (c.notBefore.getTime() >= newestAt) {
      newestAt = c.notBefore.getTime();
      newest = bundleSha[i];
    }
  });
  const read = podTrustReader([{ text: objects.configAnchors ?? bundleText, sha256: bundleSha }]);
  const pods = objects.pods.flatMap((p) => read(p) ?? []);
  const inSync = objects.configAnchors === undefined || objects.trustRoots === undefined || trimEq(objects.configAnchors, bundleText);
  return { objects, bundleText, bundle, bundleSha, issuer, issuerAnchor, newest, pods, inSync };
}

/**
 * Pods lacking any of `required`, grouped by workload. A pod whose bundle cannot be read counts
 * as lacking it unless `unknownTrusts` (the status does not call identity broken on a guess).
 */
export function podsLacking(pods: readonly PodTrust[], required: readonly string[], unknownTrusts = false): StaleWorkload[] {
  const groups = new Map<string, StaleWorkload>();
  for (const p of pods) {
    if (!p.anchors.known && unknownTrusts) continue;
    const missing = p.anchors.known ? required.filter((s) => !(p.anchors as { sha256: string[] }).sha256.includes(s)) : [...required];
    if (p.anchors.known && missing.length === 0) continue;
    const key = `${p.namespace}/${p.workload}`;
    const g = groups.get(key) ?? { namespace: p.namespace, workload: p.workload, pods: [], missing: [], unknown: false };
    g.pods.push(p.name);
    for (const m of missing) if (!g.missing.includes(m)) g.missing.push(m);
    g.unknown ||= !p.anchors.known;
    groups.set(key, g);
  }
  return [...groups.values()];
}

/** Pods whose anchors are not exactly the bundle (missing ones, or extra removed ones). */
function podsNotMatching(pods: readonly PodTrust[], bundleSha: readonly string[]): StaleWorkload[] {
  const lacking = podsLacking(pods, bundleSha);
  const keyed = new Map(lacking.map((g) => [`${g.namespace}/${g.workload}`, g]));
  for (const p of pods) {
    if (!p.anchors.known || p.anchors.sha256.length === bundleSha.length) continue;
    const key = `${p.namespace}/${p.workload}`;
    const g = keyed.get(key) ?? { namespace: p.namespace, workload: p.workload, pods: [], missing: [], unknown: false };
    if (!g.pods.includes(p.name)) g.pods.push(p.name);
    keyed.set(key, g);
  }
  return [...keyed.values()];
}

const short = (sha: string) => sha.slice(0, 16);

function restartCommands(stale: readonly StaleWorkload[], namespace: string): string[] {
  const controlPlane = stale.some((g) => g.namespace === namespace);
  const others = stale.filter((g) => g.namespace !== namespace && !g.workload.startsWith('pod/'));
  const bare = stale.filter((g) => g.workload.startsWith('pod/'));
  return [
    ...(controlPlane ? [`kubectl -n ${namespace} rollout restart deploy`] : []),
    ...others.map((g) => `kubectl -n ${g.namespace} rollout restart ${g.workload}`),
    ...bare.map((g) => `kubectl -n ${g.namespace} delete ${g.workload}   # no controller: recreate it`),
  ];
}

/** The stage, the findings and the next commands, from the facts. */
export async function rotationState(facts: RotationFacts, namespace: string, now: Date): Promise<RotationState> {
  const { objects, bundle, bundleSha, issuer, issuerAnchor, newest } = facts;
  const scheme = objects.scheme === 'kubernetes.io/tls' ? 'kubernetes.io/tls' : 'linkerd.io/tls';
  const anchors: AnchorReport[] = await Promise.all(
    bundle.map(async (c, i) => {
      const sha = bundleSha[i] ?? '';
      const role: AnchorRole = bundle.length === 1 ? 'current' : sha === newest ? 'new' : 'old';
      return { ...(await certificateReport(c, `ConfigMap ${namespace}/${TRUST_ROOTS_CONFIGMAP}`, now)), role, signsIssuer: sha === issuerAnchor };
    }),
  );
  const issuerReport = issuer
    ? await certificateReport(issuer, `Secret ${namespace}/${ISSUER_SECRET}`, now, { anchors: bundle, intermediates: [] })
    : undefined;
  const warnings: string[] = [];
  for (const a of anchors) if (a.status !== 'valid') warnings.push(`trust anchor ${a.subject} (${short(a.sha256)}) is ${a.status} (NotAfter ${a.notAfter})`);
  if (issuerReport && issuerReport.status !== 'valid')
    warnings.push(`issuer ${issuerReport.subject} is ${issuerReport.status} (NotAfter ${issuerReport.notAfter})`);
  if (!issuer) warnings.push(`Secret ${namespace}/${ISSUER_SECRET} not found`);

  const stale = podsNotMatching(facts.pods, bundleSha);
  const staleCount = stale.reduce((n, g) => n + g.pods.length, 0);
  const untrusting = issuerAnchor === undefined ? [] : podsLacking(facts.pods, [issuerAnchor], true);
  const external = scheme === 'kubernetes.io/tls';
  const ext = (cmd: string, instead: string) => (external ? instead : cmd);

  let stage: RotationStage;
  let summary: string;
  let next: string[];
  if (!facts.inSync) {
    stage = 'inconsistent';
    summary = `${LINKERD_CONFIG} and ConfigMap ${TRUST_ROOTS_CONFIGMAP} hold different anchors: the last step was applied only in part`;
    next = ['apply the last step’s manifest again in full (re-run the step: it is computed from the cluster)'];
  } else if (issuer && issuerAnchor === undefined) {
    stage = 'issuer-untrusted';
    summary = 'the issuer does not chain to any anchor of the trust bundle';
    next = [
      ext(
        'linkerd identity rotate issuer --generate --trust-anchor-key KEY | kubectl apply -f -',
        `have cert-manager re-issue Secret ${ISSUER_SECRET} from a CA in the bundle`,
      ),
    ];
  } else if (untrusting.length > 0) {
    stage = 'issuer-untrusted';
    summary = `${untrusting.reduce((n, g) => n + g.pods.length, 0)} meshed pod(s) do not trust the anchor the issuer chains to`;
    next = restartCommands(untrusting, namespace);
  } else if (bundle.length === 1 && stale.length === 0) {
    stage = 'steady';
    summary = 'one trust anchor, trusted by every meshed pod, and the issuer chains to it';
    next = [
      'linkerd identity create-trust-anchor --cert-out new-ca.crt --key-out new-ca.key   # when it is time to rotate',
      'linkerd identity rotate add-anchor --trust-anchor-file new-ca.crt | kubectl apply -f -',
    ];
  } else if (bundle.length === 1) {
    stage = 'anchor-removed';
    summary = `the bundle was pruned; ${staleCount} pod(s) still carry the old bundle until restarted`;
    next = restartCommands(stale, namespace);
  } else if (podsLacking(facts.pods, bundleSha).length > 0) {
    stage = 'bundle-distributed';
    summary = `the bundle holds ${bundle.length} anchors; ${staleCount} pod(s) were started before it and must be restarted`;
    next = [...restartCommands(stale, namespace), 'linkerd identity rotate status'];
  } else if (issuerAnchor !== newest) {
    stage = 'pods-restarted';
    summary = 'every meshed pod trusts the whole bundle; the issuer still chains to an older anchor';
    next = [
      ext(
        'linkerd identity rotate issuer --generate --trust-anchor-key new-ca.key | kubectl apply -f -',
        `have cert-manager issue Secret ${ISSUER_SECRET} from the new anchor (point the Certificate’s issuerRef at a CA Issuer holding it)`,
      ),
    ];
  } else {
    stage = 'issuer-switched';
    summary = 'the issuer chains to the newest anchor; the older anchors can be removed once proxies renewed their certificates';
    next = [
      `kubectl -n ${namespace} rollout restart deploy && restart the meshed workloads   # so no proxy holds a certificate of the old issuer`,
      objects.externalCA
        ? `have trust-manager drop the old anchors from ConfigMap ${TRUST_ROOTS_CONFIGMAP}`
        : `linkerd identity rotate remove-anchor --keep ${newest ?? ''} | kubectl apply -f -`,
    ];
  }
  return {
    namespace,
    stage,
    summary,
    scheme,
    externalCA: objects.externalCA,
    anchors,
    issuer: issuerReport,
    pods: { meshed: facts.pods.length, current: facts.pods.length - staleCount, stale },
    next,
    warnings,
  };
}

/**
 * `linkerd identity rotate status`: read the cluster, compute the stage; with peer sources, also
 * what every linked cluster trusts and presents.
 */
export async function readRotationState(
  selection: KubeSelection,
  namespace: string,
  now = new Date(),
  peerSources?: readonly TrustPeerSource[],
): Promise<RotationState> {
  const objects = await readIdentityObjects(selection, namespace, { pods: true });
  const facts = await rotationFacts(objects, namespace);
  const state = await rotationState(facts, namespace, now);
  if (peerSources === undefined) return state;
  const peers = await assessPeers(await readPeers(peerSources, selection), { bundle: facts.bundle, required: requiredOfPeers(facts), now });
  return { ...state, peers };
}

/** linkerd's issuanceLifetime (Go duration) in ms; 24h when unreadable. */
export function issuanceLifetimeMs(value: string | undefined): number {
  const d = goDuration(value ?? '24h');
  return d.ok ? Number(d.value / 1_000_000n) : 24 * 3_600_000;
}
