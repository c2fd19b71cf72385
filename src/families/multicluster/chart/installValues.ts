import { UserError } from '../../../core/errors.js';
import { type OverrideSources, buildOverrides, formatIssues, mergeValues } from '../../../core/values/index.js';
import { type ClusterFacts, applyClusterFacts, clusterOverrides } from './clusterFacts.js';
import { INSTALL_VALUE_FLAGS, applyLinkerdNamespace } from './flags.js';
import { applyRegistry, applyRegistryToControllers } from './registry.js';
import { type MulticlusterValues, MulticlusterValuesSchema, defaults, haOverlay } from './values.js';

/*
 * `multicluster install`'s values pipeline, in the real command's order: the defaults with the CLI's
 * version, `-L`, the value flags, what the cluster's linkerd-config says, LINKERD_DOCKER_REGISTRY;
 * then one overrides map — values-ha.yaml (`--ha`) under the user's `-f`/`--set`, and `cniEnabled`
 * over them — coalesced on top and validated with the chart's schema. A stand-in until the shared
 * chart engine takes this chart; the lead's command wiring calls it.
 */

export interface InstallValueSources extends OverrideSources {
  /** The CLI version that replaces values.yaml's placeholder. */
  version?: string;
  /** `-L`. */
  linkerdNamespace: string;
  /** Value flags the user set, by name (`gateway`, `gateway-port`, …), applied in the table's order. */
  flags?: Readonly<Record<string, boolean | number | string>>;
  ha?: boolean;
  /** Undefined with `--ignore-cluster`. */
  cluster?: ClusterFacts;
  /** `$LINKERD_DOCKER_REGISTRY`. */
  registry?: string;
}

export function composeInstallValues(src: InstallValueSources): MulticlusterValues {
  const base = defaults(src.version);
  applyLinkerdNamespace(base, src.linkerdNamespace);
  for (const flag of INSTALL_VALUE_FLAGS) {
    const value = src.flags?.[flag.name];
    if (value !== undefined) flag.apply(base, value);
  }
  if (src.cluster) applyClusterFacts(base, src.cluster);
  applyRegistry(base, src.registry ?? '');
  const user = buildOverrides(src);
  const overrides = mergeValues(src.ha ? haOverlay() : {}, user, src.cluster ? clusterOverrides(src.cluster) : {});
  const merged = mergeValues(base, overrides);
  const result = MulticlusterValuesSchema.safeParse(merged);
  if (!result.success) throw new UserError(formatIssues(result.error.issues, merged, 'values'));
  // The chart's defaults list no controllers: every entry is the user's.
  applyRegistryToControllers(result.data, src.registry ?? '');
  return result.data;
}
