import type { RotationState } from '../../core/identity/rotationState.js';
import { timeLeft } from './identity-inspect.js';
import { ISSUER_SECRET, TRUST_ROOTS_CONFIGMAP } from '../../core/mesh/names.js';
import { terminalField as f } from './sanitize.js';
import type { PeerTrust } from '../../core/identity/peers.js';

const shas = (anchors: ReadonlyArray<{ sha256: string }>) => (anchors.length === 0 ? '(none)' : anchors.map((a) => a.sha256.slice(0, 16)).join(', '));
const yesNo = (b: boolean | undefined) => (b === undefined ? 'unknown' : b ? 'yes' : 'no');

/** Each linked cluster: what its control plane and gateway trust, and where its gateway's identity chains. */
function peerLines(peers: readonly PeerTrust[]): string[] {
  const out = ['Linked clusters:'];
  for (const p of peers) {
    out.push(`  ${f(p.name)} (${f(p.via)})`);
    if (p.status === 'unknown') {
      out.push(`    unknown: ${f(p.error ?? '')}`);
      continue;
    }
    out.push(`    control plane trusts: ${p.anchorsKnown === false ? 'unknown (its anchors are not in linkerd-config: external CA)' : shas(p.controlPlane)}`);
    if (p.gateway) {
      const g = p.gateway;
      out.push(`    gateway (${g.pods} pod(s)) trusts: ${g.anchors === undefined ? 'unknown' : shas(g.anchors)}`);
      const chain = !g.issuerKnown ? 'unknown (external issuer)' : g.issuerAnchor === undefined ? 'no known anchor' : g.issuerAnchor.slice(0, 16);
      out.push(
        `    gateway identity chains to: ${chain}${g.mayHoldPreviousIssuer ? ' (pods started before the issuer: may still hold the previous one)' : ''}`,
      );
      out.push(`    trusts the new anchor: ${yesNo(p.trustsRequired)}; gateway still on the old chain: ${yesNo(p.gatewayOnOldChain)}`);
    } else {
      // No gateway: its pods reach ours directly with certificates of its issuer.
      const i = p.issuer;
      const chain = i === undefined || !i.known ? 'unknown (external issuer)' : i.anchor === undefined ? 'no known anchor' : i.anchor.slice(0, 16);
      out.push(`    no gateway (gateway-less link): its pods' identities chain to: ${chain}`);
      out.push(`    trusts the new anchor: ${yesNo(p.trustsRequired)}; issuer still on the old chain: ${yesNo(p.issuerOnOldChain)}`);
    }
  }
  return out;
}

/** `linkerd identity rotate status`: where the rotation stands, each certificate, the stale pods, the next commands. */
export function rotationText(s: RotationState): string {
  const out: string[] = [`Stage: ${s.stage}`, `  ${s.summary}`, ''];
  out.push(`Trust anchors (ConfigMap ${s.namespace}/${TRUST_ROOTS_CONFIGMAP})${s.externalCA ? ', managed externally' : ''}:`);
  for (const a of s.anchors) {
    out.push(
      `  ${a.role.padEnd(7)} ${a.sha256.slice(0, 16)}  ${f(a.subject)}  until ${a.notAfter} (${timeLeft(a.timeLeftMs)})${a.signsIssuer ? '  signs the issuer' : ''}`,
    );
  }
  out.push('', `Issuer (Secret ${s.namespace}/${ISSUER_SECRET}, scheme ${s.scheme}):`);
  if (s.issuer) {
    const chain = s.issuer.chainsTo?.ok
      ? `chains to ${s.issuer.chainsTo.anchorSha256.slice(0, 16)}`
      : `does not chain to the bundle: ${f(s.issuer.chainsTo?.reason ?? '')}`;
    out.push(`  ${f(s.issuer.subject)}  until ${s.issuer.notAfter} (${timeLeft(s.issuer.timeLeftMs)}), ${chain}`);
  } else {
    out.push('  (missing)');
  }
  out.push('', `Meshed pods: ${s.pods.meshed}, with the current bundle: ${s.pods.current}`);
  for (const g of s.pods.stale) {
    const why = g.unknown
      ? 'started with another bundle'
      : g.missing.length > 0
        ? `missing ${g.missing.map((m) => m.slice(0, 16)).join(', ')}`
        : 'still carry removed anchors';
    out.push(`  ${f(g.namespace)}/${f(g.workload)}: ${g.pods.length} pod(s), ${why}`);
  }
  if (s.peers !== undefined && s.peers.length > 0) out.push('', ...peerLines(s.peers));
  if (s.warnings.length > 0) out.push('', ...s.warnings.map((w) => `‼ ${w}`));
  out.push('', 'Next:', ...s.next.map((n) => `  ${n}`), '');
  return out.join('\n');
}

export function rotationJson(s: RotationState): string {
  return `${JSON.stringify(s, null, 2)}\n`;
}
