import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import type { Values } from '../../src/core/values/index.js';
import type { ControlPlaneContext } from './context.js';
import { type Component, componentLabels, createdByAnnotation, namespacedMeta } from './metadata.js';
import { CONTROL_PLANE_COMPONENT_LABEL } from '../../src/core/mesh/names.js';

/** With `enablePodDisruptionBudget` (HA), at most `controller.podDisruptionBudget.maxUnavailable` replicas may be down. */
export function podDisruptionBudget(name: string, component: Component, values: Values, ctx: ControlPlaneContext): PodDisruptionBudget[] {
  if (!values.enablePodDisruptionBudget) return [];
  return [
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: namespacedMeta(name, ctx, componentLabels(values, ctx, component), createdByAnnotation(values, ctx)),
      spec: {
        maxUnavailable: values.controller.podDisruptionBudget.maxUnavailable,
        selector: { matchLabels: { [CONTROL_PLANE_COMPONENT_LABEL]: component } },
      },
    },
  ];
}
