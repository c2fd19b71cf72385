import type { Namespace } from 'kubernetes-types/core/v1.js';
import type { MulticlusterValues } from '../values.js';
import type { MulticlusterContext } from './context.js';
import { EXTENSION, EXTENSION_LABEL } from './metadata.js';

/**
 * The extension's namespace, only when the CLI renders (Helm creates its own). `privileged`
 * because proxy-init needs NET_ADMIN; with the CNI plugin doing that work, `restricted` is enough.
 * The chart puts no commonLabels here.
 */
export function multiclusterNamespace(values: MulticlusterValues, ctx: MulticlusterContext): Namespace[] {
  if (ctx.releaseService !== 'CLI') return [];
  return [
    {
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: {
        name: ctx.namespace,
        labels: { [EXTENSION_LABEL]: EXTENSION, 'pod-security.kubernetes.io/enforce': values.cniEnabled ? 'restricted' : 'privileged' },
      },
    },
  ];
}
