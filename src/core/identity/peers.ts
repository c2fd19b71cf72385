import type { Pod } from 'kubernetes-types/core/v1.js';
import type { KubeSelection } from '../kube/kubeconfig.js';
import { decodeCertificates, fingerprintSha256, type x509 } from '../pki/index.js';
import { podTrustReader } from './podTrust.js';
import { goDuration } from '../parse/goDuration.js';

/*
 * Trust peers: other clusters whose proxies talk to ours with mTLS, so a trust-anchor rotation
 * here is only safe once they trust the new anchor too and no longer present identities chained
 * to the old one. Core does not know what links clusters (the multicluster family's Links do):
 * a family that has peers provides a TrustPeerSource through its declaration (`trustPeers`),
 * which reads each peer's raw facts; what those facts mean for a rotation is decided here.
 */

/** What a peer source read of one peer, unjudged. */
export interface PeerFacts {
  /** The peer's name (a Link's target cluster name). */
  name: string;
  /** Where it was found, for messages: `Link linkerd-multicluster/east`. */
  via: string;
  /** Why the peer could not be read: it is then reported as unknown. */
  error?: string;
  /** `identityTrustAnchorsPEM` of the peer's linkerd-config: what its control plane trusts. */
  anchorsPem?: string;
  /** The peer's issuer certificate (`identity.issuer.tls.crtPEM`), when linkerd-config carries it. */
  issuerPem?: string;
  /** The peer's `identity.issuer.issuanceLifetime` (Go duration). */
  issuanceLifetime?: string;
  /** The peer's gateway pods; undefined when the link has no gateway. */
  gatewayPods?: Pod[];
}

/** A family's reader of trust peers, given the local cluster. */
export interface TrustPeerSource {
  /** What a peer is to this source (`Link`), for messages. */
  kind: string;
  read(selection: KubeSelection, o: { timeoutMs: number; env?: NodeJS.ProcessEnv }): Promise<PeerFacts[]>;
}

export interface PeerAnchor {
  sha256: string;
  subject: string;
}

/** One peer, judged against our trust bundle. */
export interface PeerTrust {
  name: string;
  via: string;
  status: 'known' | 'unknown';
  error?: string;
  /** Anchors the peer's control plane trusts (empty when they are not in its linkerd-config: see `anchorsKnown`). */
  controlPlane: PeerAnchor[];
  /**
   * The peer's linkerd-config carries its trust anchors. False with an external CA (empty
   * `identityTrustAnchorsPEM`): what it trusts cannot be read, so the judgements below are unknown.
   */
  anchorsKnown?: boolean;
  /** The peer's issuer, whatever the link: with no gateway, its pods reach ours with certificates of this issuer. */
  issuer?: {
    /** The peer's linkerd-config carries its issuer certificate (not with an external issuer). */
    known: boolean;
    /** The anchor (sha256) the peer's issuer chains to, among the peer's and our anchors. */
    anchor?: string;
  };
  gateway?: {
    pods: number;
    /** Anchors every gateway pod's proxy trusts (the intersection); undefined when a pod's bundle is not readable. */
    anchors?: PeerAnchor[];
    /** The peer's linkerd-config carries its issuer certificate (not with an external issuer). */
    issuerKnown: boolean;
    /** The anchor (sha256) the peer's issuer chains to, among the peer's and our anchors. */
    issuerAnchor?: string;
    /** Gateway pods started before the peer's current issuer and within its issuance lifetime: they may still present a certificate of the previous issuer. */
    mayHoldPreviousIssuer: boolean;
  };
  /** Its control plane and gateway trust the anchors asked about (`required`); undefined when unknown. */
  trustsRequired?: boolean;
  /** Its control plane (linkerd-config) trusts them. */
  controlPlaneTrustsRequired?: boolean;
  /** Its gateway still presents (or may present) an identity chained to an anchor outside `required`. */
  gatewayOnOldChain?: boolean;
  /** Gateway-less link: its pods talk to ours directly, with certificates of an issuer chained to an anchor outside `required`. */
  issuerOnOldChain?: boolean;
  /** Its anchors and ours share at least one. */
  overlaps?: boolean;
}

/** linkerd's issuanceLifetime in ms; 24h when unreadable (as rotationState reads ours). */
function lifetimeMs(value: string | undefined): number {
  const d = goDuration(value ?? '24h');
  return d.ok ? Number(d.value / 1_000_000n) : 24 * 3_600_000;
}

function anchorsOf(pem: string | undefined): x509.X509Certificate[] {
  if (pem === undefined || pem.trim() === '') return [];
  const decoded = decodeCertificates(pem.trim());
  return decoded.ok ? decoded.certificates : [];
}

const refs = (certs: readonly x509.X509Certificate[]): PeerAnchor[] => certs.map((c) => ({ sha256: fingerprintSha256(c), subject: c.subject }));

async function signedBy(issuer: x509.X509Certificate, anchors: readonly x509.X509Certificate[]): Promise<string | undefined> {
  for (const a of anchors) {
    if (a.subject !== issuer.issuer) continue;
    if (fingerprintSha256(a) === fingerprintSha256(issuer)) return fingerprintSha256(a);
    if (await issuer.verify({ publicKey: a.publicKey, signatureOnly: true }).catch(() => false)) return fingerprintSha256(a);
  }
  return undefined;
}

export interface LocalTrust {
  /** Our trust bundle. */
  bundle: readonly x509.X509Certificate[];
  /** Anchors (sha256) a peer must trust and chain to for the step at hand: the new anchor, or the kept ones. */
  required: readonly string[];
  now: Date;
}

/** Judges each peer against our bundle and the anchors the rotation step requires. */
export async function assessPeers(peers: readonly PeerFacts[], local: LocalTrust): Promise<PeerTrust[]> {
  const ours = new Set(local.bundle.map(fingerprintSha256));
  return Promise.all(
    peers.map(async (p): Promise<PeerTrust> => {
      if (p.error !== undefined) return { name: p.name, via: p.via, status: 'unknown', error: p.error, controlPlane: [] };
      const pem = p.anchorsPem?.trim() ?? '';
      const decoded = pem === '' ? undefined : decodeCertificates(pem);
      // Anchors that do not decode say nothing of what the peer trusts: it cannot be judged.
      if (decoded !== undefined && !decoded.ok) return { name: p.name, via: p.via, status: 'unknown', error: 'cannot parse trust anchors', controlPlane: [] };
      const peerAnchors = decoded?.ok ? decoded.certificates : [];
      // An empty identityTrustAnchorsPEM is an external CA, not a peer that trusts nothing.
      const anchorsKnown = peerAnchors.length > 0;
      const controlPlane = refs(peerAnchors);
      const cpSha = controlPlane.map((a) => a.sha256);
      const issuerCert = anchorsOf(p.issuerPem)[0];
      const issuerAnchor = issuerCert ? await signedBy(issuerCert, [...peerAnchors, ...local.bundle]) : undefined;
      const issuer = { known: issuerCert !== undefined, ...(issuerAnchor === undefined ? {} : { anchor: issuerAnchor }) };
      const issuerOffRequired = issuer.known && (issuerAnchor === undefined || !local.required.includes(issuerAnchor));
      let gateway: PeerTrust['gateway'];
      if (p.gatewayPods !== undefined) {
        const read = podTrustReader([{ text: p.anchorsPem ?? '', sha256: cpSha }]);
        const trusts = p.gatewayPods.map((pod) => read(pod));
        let common: string[] | undefined = anchorsKnown ? cpSha : undefined;
        for (const t of trusts) {
          // A gateway pod without the env reads the bundle of its control plane.
          if (t === undefined) continue;
          common = t.anchors.known && common ? common.filter((s) => (t.anchors as { sha256: string[] }).sha256.includes(s)) : undefined;
        }
        const issuerStart = issuerCert?.notBefore.getTime();
        const renewedBy = issuerStart === undefined ? undefined : issuerStart + lifetimeMs(p.issuanceLifetime);
        const mayHoldPreviousIssuer =
          issuerStart !== undefined &&
          renewedBy !== undefined &&
          local.now.getTime() < renewedBy &&
          trusts.some((t) => t?.startedAt !== undefined && t.startedAt.getTime() < issuerStart);
        const anchors = common?.flatMap((s) => peerAnchors.filter((c) => fingerprintSha256(c) === s));
        gateway = {
          pods: p.gatewayPods.length,
          anchors: anchors === undefined ? undefined : refs(anchors),
          issuerKnown: issuer.known,
          issuerAnchor,
          mayHoldPreviousIssuer,
        };
      }
      const gatewayTrusts =
        gateway === undefined || (gateway.anchors !== undefined && local.required.every((s) => gateway.anchors?.some((a) => a.sha256 === s)));
      const controlPlaneTrustsRequired = anchorsKnown ? local.required.every((s) => cpSha.includes(s)) : undefined;
      const trustsRequired = controlPlaneTrustsRequired === undefined ? undefined : controlPlaneTrustsRequired && gatewayTrusts;
      const gatewayOnOldChain = gateway === undefined || !gateway.issuerKnown ? false : issuerOffRequired || gateway.mayHoldPreviousIssuer;
      // No gateway: the peer's pods present certificates of its issuer to ours directly.
      const issuerOnOldChain = gateway === undefined ? issuerOffRequired : undefined;
      const overlaps = anchorsKnown
        ? cpSha.some((s) => ours.has(s)) && (gateway?.anchors === undefined || gateway.anchors.some((a) => ours.has(a.sha256)))
        : undefined;
      return {
        name: p.name,
        via: p.via,
        status: 'known',
        controlPlane,
        anchorsKnown,
        issuer,
        gateway,
        trustsRequired,
        controlPlaneTrustsRequired,
        gatewayOnOldChain,
        ...(issuerOnOldChain === undefined ? {} : { issuerOnOldChain }),
        overlaps,
      };
    }),
  );
}

/** `east (Link linkerd-multicluster/east)`. */
export const peerName = (p: Pick<PeerTrust, 'name' | 'via'>): string => `${p.name} (${p.via})`;
