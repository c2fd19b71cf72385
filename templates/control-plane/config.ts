import yaml from 'js-yaml';
import type { ConfigMap, Secret } from 'kubernetes-types/core/v1.js';
import { defaultValues, linkerdConfigValues, overridesDiff, type Values } from '../../src/core/values/index.js';
import type { ControlPlaneContext } from './context.js';
import { componentLabels, createdByAnnotation, namespacedMeta } from './metadata.js';
import { CONTROL_PLANE_NS_LABEL, LINKERD_CONFIG } from '../../src/core/mesh/names.js';

/** YAML as Go's sigs.k8s.io/yaml writes it for these maps: keys sorted, no anchors, no folding. */
function valuesYaml(tree: unknown): string {
  return yaml.dump(tree, { sortKeys: true, noRefs: true, lineWidth: -1 });
}

/**
 * ConfigMap `linkerd-config`: the full values (private keys removed), read by the proxy
 * injector, `inject`, `check` and extensions.
 */
export function linkerdConfig(values: Values, ctx: ControlPlaneContext): ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: namespacedMeta(LINKERD_CONFIG, ctx, componentLabels(values, ctx, 'controller'), createdByAnnotation(values, ctx)),
    data: {
      'linkerd-crds-chart-version': ctx.crdsChartVersion,
      values: valuesYaml(linkerdConfigValues(values)),
    },
  };
}

/**
 * Secret `linkerd-config-overrides` (not part of the Helm chart): what differs from this
 * release's defaults, issuer credentials included, so `upgrade` can re-render the same install.
 */
export function configOverrides(values: Values, ctx: ControlPlaneContext): Secret {
  const diff = overridesDiff(defaultValues(ctx.cliVersion), values);
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'linkerd-config-overrides', namespace: ctx.namespace, labels: { [CONTROL_PLANE_NS_LABEL]: ctx.namespace } },
    data: { 'linkerd-config-overrides': Buffer.from(valuesYaml(diff), 'utf8').toString('base64') },
  };
}
