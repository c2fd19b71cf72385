import { renderControlPlane, type RenderedObject } from '../../../templates/control-plane/index.js';
import { UserError } from '../errors.js';
import { readPemFile } from '../files/readPemFile.js';
import { changedObjects, controlPlaneContext } from '../mesh/renderControlPlaneFor.js';
import { HELM_INSTALLED, loadStoredValues } from '../mesh/loadStoredValues.js';
import type { KubeSelection } from '../kube/kubeconfig.js';
import {
  CLOCK_SKEW_ALLOWANCE_MS,
  DEFAULT_CERT_LIFETIME_MS,
  certificateInfo,
  certificatesToPem,
  createIssuer,
  fingerprintSha256,
  keyMatchesCertificate,
  parsePrivateKey,
  supportedAnchorAlgorithm,
  toSec1Pem,
  validateIssuerCredentials,
  validityProblem,
  type x509,
} from '../pki/index.js';
import { parseBundle } from '../pki/parseBundle.js';
import { formatRFC3339 } from '../pki/formatRFC3339.js';
import type { Values } from '../values/index.js';
import { readIdentityObjects } from './identityObjects.js';
import { issuanceLifetimeMs, podsLacking, readPeers, rotationFacts, type RotationFacts, type StaleWorkload } from './rotationState.js';
import { assessPeers, peerName, type PeerTrust, type TrustPeerSource } from './peers.js';
import { ISSUER_SECRET, LINKERD_CONFIG, TRUST_BUNDLE_KEY, TRUST_ROOTS_CONFIGMAP } from '../mesh/names.js';

/*
 * The rotation steps. Each reads the cluster afresh, refuses what would break identity (unless
 * --force where waiting is the only issue), changes the values upgrade would re-render from (the
 * stored overrides), and returns the objects whose render changes: the trust-roots ConfigMap,
 * linkerd-config, the overrides Secret, the issuer Secret and the control-plane Deployments
 * whose `linkerd.io/trust-root-sha256` moves.
 */

export interface StepResult {
  objects: RenderedObject[];
  /** What to do next, for stderr. */
  notes: string[];
}

interface StepInput {
  selection: KubeSelection;
  namespace: string;
  force: boolean;
  now?: Date;
  /** Linked clusters (the families' trust peers) whose trust must move with ours. */
  peers?: readonly TrustPeerSource[];
}

async function judgePeers(input: StepInput, facts: RotationFacts, required: readonly string[], now: Date): Promise<PeerTrust[]> {
  if (!input.peers || input.peers.length === 0) return [];
  return assessPeers(await readPeers(input.peers, input.selection), { bundle: facts.bundle, required, now });
}

/**
 * Why each peer is not ready for the anchors `required` to be the only ones (`blockers`, empty:
 * ready), and what cannot be judged but does not block (`warnings`): a peer with an external CA
 * keeps its anchors out of linkerd-config, so whether it trusts `required` is not readable; refusing
 * forever would make the rotation impossible, so the user is told to check it themselves.
 */
function peerBlockers(peers: readonly PeerTrust[], what: string): { blockers: string[]; warnings: string[] } {
  const warnings: string[] = [];
  const blockers = peers.flatMap((p) => {
    if (p.status === 'unknown') return [`* ${peerName(p)}: cannot be read, so it may lack ${what}: ${p.error ?? ''}`];
    const out: string[] = [];
    if (p.anchorsKnown === false) {
      warnings.push(
        `* ${peerName(p)}: its trust anchors are not in its linkerd-config (external CA), so whether it trusts ${what} cannot be read: make sure it does`,
      );
    }
    if (p.controlPlaneTrustsRequired === false) out.push(`* ${peerName(p)}: it does not trust ${what} yet (run the same add-anchor step on it)`);
    else if (p.trustsRequired === false) out.push(`* ${peerName(p)}: its gateway does not trust ${what} yet (restart the gateway)`);
    if (p.gatewayOnOldChain) {
      out.push(
        p.gateway?.mayHoldPreviousIssuer
          ? `* ${peerName(p)}: its gateway started before its current issuer and may still present an identity of the old chain (restart it)`
          : `* ${peerName(p)}: its gateway still presents an identity chained to an anchor that would be removed (switch its issuer first)`,
      );
    }
    if (p.issuerOnOldChain) {
      out.push(
        `* ${peerName(p)}: it has no gateway, so its pods present identities of its issuer directly, and that issuer chains to an anchor that would be removed (switch its issuer first)`,
      );
    }
    return out;
  });
  return { blockers, warnings };
}

/** At most this many pods are named in a refusal; the rest are counted. */
const MAX_LISTED_PODS = 25;

export function listPods(groups: readonly StaleWorkload[]): string {
  const all = groups.flatMap((g) => g.pods.map((p) => `* ${g.namespace}/${p}`));
  const shown = all.slice(0, MAX_LISTED_PODS);
  return [...shown, ...(all.length > shown.length ? [`* … and ${all.length - shown.length} more`] : [])].join('\n');
}

interface Context {
  facts: RotationFacts;
  values: Values;
  now: Date;
  render: (next: Values) => RenderedObject[];
}

async function load(input: StepInput): Promise<Context> {
  const now = input.now ?? new Date();
  const objects = await readIdentityObjects(input.selection, input.namespace, { pods: true, installed: true });
  const facts = await rotationFacts(objects, input.namespace);
  // upgrade's values: chart defaults + the stored overrides (a Helm install has none)
  if (objects.overrides === undefined) throw new UserError(HELM_INSTALLED);
  const { values } = loadStoredValues(objects.overrides);
  if (!facts.inSync && !input.force) {
    throw new UserError(
      `${LINKERD_CONFIG} and ConfigMap ${TRUST_ROOTS_CONFIGMAP} hold different anchors: apply the previous step’s manifest in full first (or use --force)`,
    );
  }
  const ctx = await controlPlaneContext({ values, namespace: input.namespace, now, installed: objects.installed });
  // The "before" render starts from the cluster's live bundle, so only this step's change shows.
  const before = structuredClone(values);
  before.identityTrustAnchorsPEM = objects.configAnchors ?? values.identityTrustAnchorsPEM;
  const baseline = renderControlPlane(before, ctx);
  return {
    facts,
    values: before,
    now,
    render: (next) => changedObjects(baseline, renderControlPlane(next, ctx)),
  };
}

function refuseExternalCA(values: Values, namespace: string, what: string): void {
  if (values.identity.externalCA) {
    throw new UserError(
      `the trust bundle is managed outside Linkerd (identity.externalCA=true): ${what} in ConfigMap ${namespace}/${TRUST_ROOTS_CONFIGMAP} (key ${TRUST_BUNDLE_KEY}) with trust-manager's Bundle, then restart the control plane and the meshed workloads`,
    );
  }
}

function checkNewAnchor(cert: x509.X509Certificate, where: string, now: Date): void {
  const info = certificateInfo(cert);
  if (!info.isCA) throw new UserError(`${where}: ${info.subjectCN || cert.subject} is not a CA certificate and cannot be a trust anchor`);
  const time = validityProblem(info, now);
  if (time !== undefined) throw new UserError(`${where}: trust anchor ${info.subjectCN} is ${time}`);
  const algorithm = supportedAnchorAlgorithm(info);
  if (!algorithm.supported) throw new UserError(`${where}: trust anchor ${algorithm.reason}`);
}

/** `rotate add-anchor --trust-anchor-file NEW`: bundle = current + NEW, everywhere the anchors live. */
export async function addAnchor(input: StepInput & { trustAnchorFile: string }): Promise<StepResult> {
  const text = readPemFile(input.trustAnchorFile);
  const entries = parseBundle(text, input.trustAnchorFile);
  const c = await load(input);
  refuseExternalCA(c.values, input.namespace, 'add the new anchor');
  for (const e of entries) {
    const where = `${input.trustAnchorFile}:${e.line}`;
    checkNewAnchor(e.certificate, where, c.now);
    if (c.facts.bundleSha.includes(fingerprintSha256(e.certificate))) {
      throw new UserError(`${where}: ${e.certificate.subject} is already in the trust bundle; run \`linkerd identity rotate status\``);
    }
  }
  const next = structuredClone(c.values);
  next.identityTrustAnchorsPEM = `${c.facts.bundleText.trim()}\n${certificatesToPem(entries.map((e) => e.certificate))}`;
  const notes = [
    `Trust bundle: ${c.facts.bundle.length} anchor(s) + ${entries.length} new.`,
    'Next: apply this manifest, restart the control plane (kubectl -n ' + input.namespace + ' rollout restart deploy), then every meshed workload,',
    'and follow `linkerd identity rotate status` until it reports pods-restarted.',
  ];
  const peers = await judgePeers(
    input,
    c.facts,
    entries.map((e) => fingerprintSha256(e.certificate)),
    c.now,
  );
  const behind = peers.filter((p) => p.status === 'unknown' || p.trustsRequired === false);
  if (behind.length > 0) {
    notes.push(
      'Linked clusters need the same step (add-anchor with this file, applied to each, then restarts) before any issuer is switched:',
      ...behind.map((p) => (p.status === 'unknown' ? `  ${peerName(p)}: cannot be read (${p.error ?? ''})` : `  ${peerName(p)}`)),
    );
  }
  const trusting = peers.filter((p) => p.trustsRequired === true);
  if (behind.length === 0 && trusting.length > 0) notes.push(`Linked clusters already trusting the new anchor: ${trusting.map((p) => p.name).join(', ')}.`);
  const unreadable = peers.filter((p) => p.anchorsKnown === false);
  if (unreadable.length > 0) {
    notes.push(
      'Linked clusters whose anchors are not in their linkerd-config (external CA): add the new anchor there the way their CA is managed:',
      ...unreadable.map((p) => `  ${peerName(p)}`),
    );
  }
  return { objects: c.render(next), notes };
}

/** The issuer's own chain top within the bundle, or a refusal. */
async function issuerAnchorOf(
  crtPem: string,
  keyPem: string,
  facts: RotationFacts,
  now: Date,
  source: string,
): Promise<{ sha: string; leafPem: string; keyPem: string }> {
  const valid = await validateIssuerCredentials({ crtPem, keyPem, anchorsPem: facts.bundleText, now }).catch((e: unknown) => {
    throw e instanceof UserError ? new UserError(`${source}: ${e.message} (against the cluster's trust bundle)`) : e;
  });
  const top = valid.chain[valid.chain.length - 1];
  if (top === undefined) throw new UserError(`${source}: no chain to the trust bundle`);
  const key = valid.key.type === 'ec' ? toSec1Pem(valid.key.keyObject) : keyPem;
  return { sha: fingerprintSha256(top), leafPem: valid.issuerPem, keyPem: key };
}

export interface IssuerStepInput extends StepInput {
  issuerCertificateFile?: string;
  issuerKeyFile?: string;
  /** Generate the issuer, signed by the bundle anchor this key belongs to. */
  generate?: { trustAnchorKeyFile: string; validity?: number; commonName?: string };
}

/** `rotate issuer`: a new issuer Secret, refused while a meshed pod does not trust its anchor. */
export async function switchIssuer(input: IssuerStepInput): Promise<StepResult> {
  const c = await load(input);
  if (c.values.identity.issuer.scheme === 'kubernetes.io/tls') {
    throw new UserError(
      `the issuer is managed outside Linkerd (scheme kubernetes.io/tls): have cert-manager re-issue Secret ${input.namespace}/${ISSUER_SECRET} from a CA Issuer that holds the new trust anchor (change the Certificate's issuerRef), then run \`linkerd identity rotate status\``,
    );
  }
  let crtPem: string;
  let keyPem: string;
  let source: string;
  if (input.generate && (input.issuerCertificateFile || input.issuerKeyFile)) {
    throw new UserError('--generate makes the issuer: leave out --issuer-certificate-file and --issuer-key-file');
  }
  if (input.generate) {
    const anchorKeyPem = readPemFile(input.generate.trustAnchorKeyFile);
    const anchorKey = parsePrivateKey(anchorKeyPem, input.generate.trustAnchorKeyFile);
    const anchor = c.facts.bundle.find((a) => keyMatchesCertificate(anchorKey.keyObject, a));
    if (anchor === undefined) throw new UserError(`${input.generate.trustAnchorKeyFile}: the key belongs to no anchor of the cluster's trust bundle`);
    const info = certificateInfo(anchor);
    const time = validityProblem(info, c.now);
    if (time !== undefined) throw new UserError(`${input.generate.trustAnchorKeyFile}: its trust anchor ${info.subjectCN} is ${time}`);
    const start = c.now.getTime() - CLOCK_SKEW_ALLOWANCE_MS;
    const end = Math.min(c.now.getTime() + (input.generate.validity ?? DEFAULT_CERT_LIFETIME_MS) + CLOCK_SKEW_ALLOWANCE_MS, info.notAfter.getTime());
    const trustDomain = c.values.identityTrustDomain || c.values.clusterDomain;
    const issuer = await createIssuer({
      anchor: { certPem: certificatesToPem([anchor]), keyPem: anchorKeyPem },
      commonName: input.generate.commonName ?? `identity.${input.namespace}.${trustDomain}`,
      notBefore: new Date(start),
      notAfter: new Date(end),
    });
    crtPem = issuer.certPem;
    keyPem = issuer.keyPem;
    source = 'generated issuer';
  } else {
    if (!input.issuerCertificateFile || !input.issuerKeyFile) {
      throw new UserError('give --issuer-certificate-file and --issuer-key-file, or --generate with --trust-anchor-key');
    }
    crtPem = readPemFile(input.issuerCertificateFile);
    keyPem = readPemFile(input.issuerKeyFile);
    source = input.issuerCertificateFile;
  }
  const issuer = await issuerAnchorOf(crtPem, keyPem, c.facts, c.now, source);
  const untrusting = podsLacking(c.facts.pods, [issuer.sha]);
  if (untrusting.length > 0 && !input.force) {
    const n = untrusting.reduce((k, g) => k + g.pods.length, 0);
    throw new UserError(
      `${n} meshed pod(s) do not trust the anchor that signs the new issuer yet; restart them first (or use --force):\n${listPods(untrusting)}`,
    );
  }
  // Linked clusters verify our proxies' new certificates with their own anchors: say which do not trust this one yet.
  const peers = await judgePeers(input, c.facts, [issuer.sha], c.now);
  const behind = peers.filter((p) => p.status === 'unknown' || p.trustsRequired === false);
  const next = structuredClone(c.values);
  next.identity.issuer.tls.crtPEM = issuer.leafPem;
  next.identity.issuer.tls.keyPEM = issuer.keyPem;
  const notes = [
    'Next: apply this manifest; the identity controller reloads the issuer by itself.',
    'Then restart the control plane and the meshed workloads, so every proxy holds a certificate of the new issuer,',
    'and follow `linkerd identity rotate status` until it reports issuer-switched.',
    ...(behind.length > 0
      ? [
          'Warning: these linked clusters do not trust the new issuer’s anchor yet; their gateways will refuse proxies restarted with it (run add-anchor there first):',
          ...behind.map((p) => (p.status === 'unknown' ? `  ${peerName(p)}: cannot be read (${p.error ?? ''})` : `  ${peerName(p)}`)),
        ]
      : []),
  ];
  return { objects: c.render(next), notes };
}

export interface RemoveAnchorInput extends StepInput {
  /** Keep the anchors of this file. */
  trustAnchorFile?: string;
  /** Keep the anchors with these SHA-256 fingerprints (a unique prefix is enough). */
  keep?: readonly string[];
}

function keptAnchors(input: RemoveAnchorInput, facts: RotationFacts): string[] {
  if (input.trustAnchorFile) {
    const kept = parseBundle(readPemFile(input.trustAnchorFile), input.trustAnchorFile);
    return kept.map((e) => {
      const sha = fingerprintSha256(e.certificate);
      if (!facts.bundleSha.includes(sha)) {
        throw new UserError(
          `${input.trustAnchorFile}:${e.line}: ${e.certificate.subject} is not in the trust bundle; add it first with \`linkerd identity rotate add-anchor\``,
        );
      }
      return sha;
    });
  }
  if (!input.keep || input.keep.length === 0) throw new UserError('give --trust-anchor-file with the anchors to keep, or --keep SHA256');
  return input.keep.map((prefix) => {
    const p = prefix.toLowerCase().replace(/:/g, '');
    const hits = facts.bundleSha.filter((s) => s.startsWith(p));
    if (hits.length === 0 || p.length < 8) throw new UserError(`--keep ${prefix}: no anchor of the trust bundle has this SHA-256 (at least 8 hex digits)`);
    if (hits.length > 1) throw new UserError(`--keep ${prefix}: more than one anchor matches; give more digits`);
    return hits[0] ?? '';
  });
}

/** `rotate remove-anchor`: the pruned bundle, refused while the issuer or a pod still depends on a removed anchor. */
export async function removeAnchor(input: RemoveAnchorInput): Promise<StepResult> {
  const c = await load(input);
  refuseExternalCA(c.values, input.namespace, 'remove the old anchors');
  const keep = keptAnchors(input, c.facts);
  const removed = c.facts.bundleSha.filter((s) => !keep.includes(s));
  if (removed.length === 0) throw new UserError('nothing to remove: every anchor of the trust bundle would be kept');
  if (c.facts.issuerAnchor === undefined || !keep.includes(c.facts.issuerAnchor)) {
    throw new UserError(
      'the issuer certificate chains to an anchor that would be removed: switch the issuer to a kept anchor first (`linkerd identity rotate issuer`)',
    );
  }
  const untrusting = podsLacking(c.facts.pods, keep);
  if (untrusting.length > 0 && !input.force) {
    throw new UserError(`meshed pods do not trust the anchors that would remain; restart them first (or use --force):\n${listPods(untrusting)}`);
  }
  // A proxy keeps the certificate of the issuer it started with until it renews it (issuanceLifetime).
  const issuerStart = c.facts.issuer?.notBefore.getTime() ?? 0;
  const renewedBy = issuerStart + issuanceLifetimeMs(c.values.identity.issuer.issuanceLifetime);
  const holdOld = c.facts.pods.filter((p) => p.startedAt !== undefined && p.startedAt.getTime() < issuerStart);
  if (holdOld.length > 0 && c.now.getTime() < renewedBy && !input.force) {
    const groups = podsLacking(
      holdOld.map((p) => ({ ...p, anchors: { known: false } as const })),
      [],
    );
    throw new UserError(
      `${holdOld.length} meshed pod(s) started before the current issuer and may still hold a certificate of the old one until ${formatRFC3339(new Date(renewedBy))}; restart them or wait (or use --force):\n${listPods(groups)}`,
    );
  }
  const { blockers, warnings } = peerBlockers(await judgePeers(input, c.facts, keep, c.now), 'the anchors that would remain');
  if (blockers.length > 0 && !input.force) {
    throw new UserError(
      `linked clusters still depend on the anchors that would be removed; finish the rotation there first (or use --force):\n${blockers.join('\n')}`,
    );
  }
  const next = structuredClone(c.values);
  next.identityTrustAnchorsPEM = certificatesToPem(c.facts.bundle.filter((_, i) => keep.includes(c.facts.bundleSha[i] ?? '')));
  const notes = [
    ...(blockers.length > 0 ? ['Warning: --force: cross-cluster traffic with these linked clusters may fail once this is applied:', ...blockers] : []),
    ...(warnings.length > 0
      ? ['Warning: cross-cluster traffic with these linked clusters may fail once this is applied unless they trust the anchors kept:', ...warnings]
      : []),
    `Trust bundle: removing ${removed.length} anchor(s), keeping ${keep.length}.`,
    `Next: apply this manifest, restart the control plane (kubectl -n ${input.namespace} rollout restart deploy) and the meshed workloads,`,
    'then `linkerd identity rotate status` reports steady once no pod carries the old bundle.',
  ];
  return { objects: c.render(next), notes };
}

/** `--generate` with its `--trust-anchor-key`, checked against each other. */
export function issuerSource(generate: boolean, trustAnchorKey: string | undefined, validityMs: number): IssuerStepInput['generate'] {
  if (!generate) {
    if (trustAnchorKey !== undefined) throw new UserError('--trust-anchor-key is only used with --generate');
    return undefined;
  }
  if (trustAnchorKey === undefined) throw new UserError('--generate needs --trust-anchor-key, the private key of the anchor that signs the new issuer');
  return { trustAnchorKeyFile: trustAnchorKey, validity: validityMs };
}
