import type { Pod } from 'kubernetes-types/core/v1.js';
import { TRUST_ANCHORS_ENV, TRUST_ROOT_ANNOTATION } from '../mesh/names.js';
import { proxyContainer } from '../mesh/proxyContainer.js';
import { decodeCertificates, fingerprintSha256, sha256Hex } from '../pki/index.js';

/** The anchors a pod's proxy was started with: fingerprints, or unknown (a bundle we cannot see). */
export type PodAnchors = { known: true; sha256: string[] } | { known: false };

export interface PodTrust {
  namespace: string;
  name: string;
  /** `deployment/web`, `statefulset/db`, `pod/x` (no controller). */
  workload: string;
  anchors: PodAnchors;
  /** status.startTime, else creationTimestamp. */
  startedAt?: Date;
}

/** The workload a pod belongs to: a ReplicaSet's Deployment (by its pod-template-hash), else its controller. */
export function workloadOf(pod: Pod): string {
  const owner = pod.metadata?.ownerReferences?.find((o) => o.controller) ?? pod.metadata?.ownerReferences?.[0];
  if (!owner) return `pod/${pod.metadata?.name ?? ''}`;
  if (owner.kind === 'ReplicaSet') {
    const hash = pod.metadata?.labels?.['pod-template-hash'];
    if (hash && owner.name.endsWith(`-${hash}`)) return `deployment/${owner.name.slice(0, -hash.length - 1)}`;
    // Without the label, a Deployment's ReplicaSet still ends in its template hash.
    const m = /^(.+)-[a-z0-9]{6,10}$/.exec(owner.name);
    if (m?.[1]) return `deployment/${m[1]}`;
  }
  return `${owner.kind.toLowerCase()}/${owner.name}`;
}

/**
 * Reads what each meshed pod trusts: the PEM inlined in its proxy's env (what the injector
 * wrote at admission), or, for control-plane pods that read the ConfigMap at start, the bundle
 * whose sha256 their `linkerd.io/trust-root-sha256` annotation names. Bundles are parsed once
 * per distinct text, so thousands of pods sharing one bundle cost one parse.
 */
export function podTrustReader(currentBundles: ReadonlyArray<{ text: string; sha256: string[] }>): (pod: Pod) => PodTrust | undefined {
  const parsed = new Map<string, PodAnchors>();
  const byDigest = new Map<string, string[]>();
  for (const b of currentBundles) {
    byDigest.set(sha256Hex(b.text), b.sha256);
    byDigest.set(sha256Hex(b.text.trim()), b.sha256);
  }
  const inline = (pem: string): PodAnchors => {
    let hit = parsed.get(pem);
    if (hit === undefined) {
      const decoded = decodeCertificates(pem.trim());
      hit = decoded.ok && decoded.certificates.length > 0 ? { known: true, sha256: decoded.certificates.map(fingerprintSha256) } : { known: false };
      parsed.set(pem, hit);
    }
    return hit;
  };
  return (pod) => {
    const env = proxyContainer(pod)?.env?.find((e) => e.name === TRUST_ANCHORS_ENV);
    if (env === undefined) return undefined;
    let anchors: PodAnchors;
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the API may send `value: null` (an absent value, as Go reads it)
    if (env.value !== undefined && env.value !== null) {
      anchors = inline(env.value);
    } else {
      const digest = pod.metadata?.annotations?.[TRUST_ROOT_ANNOTATION];
      const known = digest === undefined ? undefined : byDigest.get(digest);
      anchors = known ? { known: true, sha256: known } : { known: false };
    }
    const started = pod.status?.startTime ?? pod.metadata?.creationTimestamp;
    return {
      namespace: pod.metadata?.namespace ?? '',
      name: pod.metadata?.name ?? '',
      workload: workloadOf(pod),
      anchors,
      startedAt: started ? new Date(started) : undefined,
    };
  };
}
