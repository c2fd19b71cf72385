import type { DeploymentStrategy } from 'kubernetes-types/apps/v1.js';
import type { EnvVar, PodSecurityContext, Toleration } from 'kubernetes-types/core/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import { INJECT_ANNOTATION } from '../../../../core/mesh/names.js';
export { restrictedSecurityContext } from '../../../../../templates/shared/securityContext.js';

export function podSecurityContext(): PodSecurityContext {
  return { seccompProfile: { type: 'RuntimeDefault' } };
}

/** With pod anti-affinity (HA) at most one replica is replaced at a time. */
export function haStrategy(): DeploymentStrategy {
  return { rollingUpdate: { maxUnavailable: 1 } };
}

/** Pod annotations the service mirrors share: injected, evictable, and no wait before exit. */
export function mirrorPodAnnotations(extra: Record<string, string>): Record<string, string> {
  return {
    [INJECT_ANNOTATION]: 'enabled',
    'cluster-autoscaler.kubernetes.io/safe-to-evict': 'true',
    'config.alpha.linkerd.io/proxy-wait-before-exit-seconds': '0',
    ...extra,
  };
}

/** `additionalEnv` then `experimentalEnv`, or undefined when both are empty (the chart omits `env`). */
export function envList(additional: readonly EnvVar[] | undefined, experimental: readonly EnvVar[] | undefined): EnvVar[] | undefined {
  const env = [...(additional ?? []), ...(experimental ?? [])].map((e) => structuredClone(e));
  return env.length ? env : undefined;
}

/** A PodDisruptionBudget allowing one replica down. */
export function disruptionBudget(metadata: ObjectMeta, matchLabels: Record<string, string>): PodDisruptionBudget {
  return { kind: 'PodDisruptionBudget', apiVersion: 'policy/v1', metadata, spec: { maxUnavailable: 1, selector: { matchLabels } } };
}

/** Non-empty node selector and tolerations, as the chart's `with` blocks emit them. */
export function scheduling(
  nodeSelector: Record<string, string> | undefined,
  tolerations: readonly unknown[] | undefined,
): { nodeSelector?: Record<string, string>; tolerations?: Toleration[] } {
  const out: { nodeSelector?: Record<string, string>; tolerations?: Toleration[] } = {};
  if (nodeSelector && Object.keys(nodeSelector).length) out.nodeSelector = { ...nodeSelector };
  if (tolerations?.length) out.tolerations = structuredClone(tolerations) as Toleration[];
  return out;
}
