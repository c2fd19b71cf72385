import type { CustomResourceDefinition, CustomResourceDefinitionNames, CustomResourceDefinitionVersion } from 'kubernetes-types/apiextensions/v1.js';
import type { CrdContext } from './crd-context.js';
import { CONTROL_PLANE_NS_LABEL, CREATED_BY_ANNOTATION } from '../../src/core/mesh/names.js';

export interface NamespacedCrdParts {
  group: string;
  names: CustomResourceDefinitionNames;
  versions: CustomResourceDefinitionVersion[];
  /** Extra annotations, placed before linkerd's own in the order given. */
  annotations?: Record<string, string>;
  /** Annotations that follow linkerd's `created-by` one (e.g. Helm's resource policy). */
  trailingAnnotations?: Record<string, string>;
  /** Only set where the real chart sets it explicitly. */
  preserveUnknownFields?: false;
}

/**
 * A namespaced CustomResourceDefinition carrying the labels and annotation every CRD of the
 * linkerd-crds chart has: `uninstall` and `prune` select on `linkerd.io/control-plane-ns`,
 * and `check` tells Linkerd-managed Gateway API CRDs apart by `linkerd.io/created-by`.
 */
export function namespacedCrd(ctx: CrdContext, parts: NamespacedCrdParts): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${parts.names.plural}.${parts.group}`,
      annotations: {
        ...parts.annotations,
        [CREATED_BY_ANNOTATION]: `linkerd/cli ${ctx.cliVersion}`,
        ...parts.trailingAnnotations,
      },
      labels: {
        // Helm's chart label cannot contain '+', so the chart replaces it (semver build metadata).
        'helm.sh/chart': `linkerd-crds-${ctx.chartVersion.replaceAll('+', '_')}`,
        [CONTROL_PLANE_NS_LABEL]: ctx.namespace,
      },
    },
    spec: {
      group: parts.group,
      names: parts.names,
      scope: 'Namespaced',
      ...(parts.preserveUnknownFields === false ? { preserveUnknownFields: false } : {}),
      versions: parts.versions,
    },
  };
}
