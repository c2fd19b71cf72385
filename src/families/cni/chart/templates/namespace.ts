import type { Namespace } from 'kubernetes-types/core/v1.js';
import { CNI_RESOURCE_LABEL } from '../../../../core/mesh/names.js';
import type { CniContext } from './meta.js';

/**
 * The plugin's namespace (rendered by the CLI only, not by Helm). The plugin writes to the host, so
 * its pods need the `privileged` Pod Security level; the webhooks leave the namespace alone.
 */
export function cniNamespace(ctx: CniContext): Namespace {
  return {
    kind: 'Namespace',
    apiVersion: 'v1',
    metadata: {
      name: ctx.namespace,
      labels: {
        [CNI_RESOURCE_LABEL]: 'true',
        'config.linkerd.io/admission-webhooks': 'disabled',
        'pod-security.kubernetes.io/enforce': 'privileged',
      },
    },
  };
}
