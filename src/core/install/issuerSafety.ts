import type { Pod } from 'kubernetes-types/core/v1.js';
import { proxyContainer } from '../mesh/proxyContainer.js';
import { TRUST_ANCHORS_ENV } from '../mesh/names.js';
import { decodeCertificates, verifyChain } from '../pki/index.js';

/*
 * upgrade's ensureIssuerCertWorksWithAllProxies: a new issuer must chain to the trust anchors
 * each meshed proxy was started with, or those proxies reject every certificate it signs.
 */

export const ISSUER_UNTRUSTED_HEADER =
  'You are attempting to use an issuer certificate which does not validate against the trust anchors of the following pods:';
export const ISSUER_UNTRUSTED_FOOTER =
  'These pods do not have the current trust bundle and must be restarted.  Use the --force flag to proceed anyway (this will likely prevent those pods from sending or receiving traffic).';

/**
 * `ns/pod` of each meshed pod outside the control-plane namespace whose proxy's
 * `LINKERD2_PROXY_IDENTITY_TRUST_ANCHORS` does not verify `issuerPem` at `now` (control-plane
 * proxies read the trust-roots ConfigMap instead). Unlike linkerd, which looks only at regular
 * containers, a native-sidecar proxy (in initContainers, the chart default) is checked too.
 */
export async function podsRejectingIssuer(pods: readonly Pod[], controlPlaneNamespace: string, issuerPem: string, now: Date): Promise<string[]> {
  const issuer = decodeCertificates(issuerPem);
  if (!issuer.ok) return [];
  const [leaf, ...intermediates] = issuer.certificates;
  if (leaf === undefined) return [];
  const verdicts = new Map<string, boolean>();
  const out: string[] = [];
  for (const pod of pods) {
    const namespace = pod.metadata?.namespace ?? '';
    if (namespace === controlPlaneNamespace) continue;
    const env = proxyContainer(pod)?.env?.find((e) => e.name === TRUST_ANCHORS_ENV);
    if (!env) continue;
    const anchorsPem = (env.value ?? '').trim();
    // Thousands of pods share a handful of bundles: verify each bundle once.
    let trusted = verdicts.get(anchorsPem);
    if (trusted === undefined) {
      const anchors = decodeCertificates(anchorsPem);
      trusted = anchors.ok && anchors.certificates.length > 0 && (await verifyChain(leaf, intermediates, anchors.certificates, now)).ok;
      verdicts.set(anchorsPem, trusted);
    }
    if (!trusted) out.push(`* ${namespace}/${pod.metadata?.name ?? ''}`);
  }
  return out;
}

/** The refusal listing the pods, in linkerd's words. */
export function issuerUntrustedMessage(pods: readonly string[]): string {
  return `${ISSUER_UNTRUSTED_HEADER}\n\t${pods.join('\n\t')}\n${ISSUER_UNTRUSTED_FOOTER}`;
}
