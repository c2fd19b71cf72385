import type { Pod } from 'kubernetes-types/core/v1.js';
import type { RenderedObject } from '../../../templates/control-plane/index.js';
import { renderCrds } from '../../../templates/crds/index.js';
import { createIssuer, createTrustAnchor } from '../../../src/core/pki/index.js';

/** Shared by the upgrade, uninstall and prune tests. */

export const linkerdCrds = () => renderCrds({ namespace: 'linkerd', cliVersion: 'edge-26.9.1', chartVersion: '2026.9.1', installGatewayAPI: false });

/** `Kind ns/name` of an object, its identity in a render. */
export const keyOf = (o: RenderedObject) => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

/** Leaf paths (`spec.replicas`) where `a` and `b` differ, compared as printed (JSON). */
export function changedPaths(a: unknown, b: unknown, prefix = ''): string[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  const bothObjects = typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && Array.isArray(a) === Array.isArray(b);
  if (!bothObjects) return [prefix];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((k) => changedPaths((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], prefix ? `${prefix}.${k}` : k));
}

/** Per object (`Kind ns/name`), the paths that differ between two renders; objects only in one side are `+`/`-`. */
export function renderDiff(before: readonly RenderedObject[], after: readonly RenderedObject[]): Record<string, string[]> {
  const old = new Map(before.map((o) => [keyOf(o), o]));
  const out: Record<string, string[]> = {};
  for (const o of after) {
    const prev = old.get(keyOf(o));
    old.delete(keyOf(o));
    if (!prev) {
      out[keyOf(o)] = ['+'];
      continue;
    }
    const paths = changedPaths(prev, o);
    if (paths.length > 0) out[keyOf(o)] = paths;
  }
  for (const k of old.keys()) out[k] = ['-'];
  return out;
}

/** A trust anchor and an issuer it signs, valid over [from, to]. */
export async function identityChain(from: Date, to: Date) {
  const anchor = await createTrustAnchor({ commonName: 'root.linkerd.cluster.local', notBefore: from, notAfter: to });
  const issuer = await createIssuer({ anchor, commonName: 'identity.linkerd.cluster.local', notBefore: from, notAfter: to });
  return { anchor, issuer };
}

/** A meshed workload pod whose proxy was started with `anchorsPem` (native sidecar, as the chart injects). */
export function meshedPod(namespace: string, name: string, anchorsPem: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels: { 'linkerd.io/control-plane-ns': 'linkerd', 'linkerd.io/workload-ns': namespace } },
    spec: {
      initContainers: [
        {
          name: 'linkerd-proxy',
          image: 'cr.l5d.io/linkerd/proxy:edge-26.9.1',
          restartPolicy: 'Always',
          env: [{ name: 'LINKERD2_PROXY_IDENTITY_TRUST_ANCHORS', value: anchorsPem }],
        },
      ],
      containers: [{ name: 'app', image: 'app:1' }],
    },
  };
}

export const namespaceObject = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
