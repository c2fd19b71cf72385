import type { Affinity } from 'kubernetes-types/core/v1.js';

/*
 * The charts' `linkerd.affinity` partial, shared by the control plane and the extensions: with
 * pod anti-affinity (HA) replicas of one component must sit on different nodes and should sit in
 * different zones; the user's nodeAffinity is passed through.
 */

export interface AffinityInput {
  /** The label naming the component (`linkerd.io/control-plane-component`, or `component` in extensions). */
  labelKey: string;
  component: string;
  antiAffinity: boolean;
  nodeAffinity?: Record<string, unknown> | null;
}

/** The pod's affinity, or undefined when neither anti-affinity nor a node affinity applies. */
export function componentAffinity(input: AffinityInput): Affinity | undefined {
  const out: Affinity = {};
  if (input.antiAffinity) {
    const selector = { matchExpressions: [{ key: input.labelKey, operator: 'In', values: [input.component] }] };
    out.podAntiAffinity = {
      preferredDuringSchedulingIgnoredDuringExecution: [
        { podAffinityTerm: { labelSelector: selector, topologyKey: 'topology.kubernetes.io/zone' }, weight: 100 },
      ],
      requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: structuredClone(selector), topologyKey: 'kubernetes.io/hostname' }],
    };
  }
  if (input.nodeAffinity && Object.keys(input.nodeAffinity).length) out.nodeAffinity = structuredClone(input.nodeAffinity);
  return Object.keys(out).length ? out : undefined;
}
