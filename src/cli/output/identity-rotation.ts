import type { RotationState } from '../../core/identity/rotationState.js';
import { timeLeft } from './identity-inspect.js';
import { ISSUER_SECRET, TRUST_ROOTS_CONFIGMAP } from '../../core/mesh/names.js';
import { terminalField as f } from './sanitize.js';

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
  if (s.warnings.length > 0) out.push('', ...s.warnings.map((w) => `‼ ${w}`));
  out.push('', 'Next:', ...s.next.map((n) => `  ${n}`), '');
  return out.join('\n');
}

export function rotationJson(s: RotationState): string {
  return `${JSON.stringify(s, null, 2)}\n`;
}
