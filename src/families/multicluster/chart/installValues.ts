import { type ChartInputs, type SetFlag, composeChartInputs, composeChartValues } from '../../../core/values/chart.js';
import { type OverrideSources, mergeValues } from '../../../core/values/index.js';
import type { ValuesReader } from '../../../core/values/valuesFiles.js';
import { multiclusterChart } from './chart.js';
import { type ClusterFacts, applyClusterFacts } from './clusterFacts.js';
import { applyLinkerdNamespace } from './flags.js';
import { applyRegistry, applyRegistryToControllers } from './registry.js';
import { type MulticlusterValues, defaults, haOverlay } from './values.js';

/*
 * `multicluster install`'s values, through the shared chart engine, in the real command's order:
 * the defaults with the CLI's version, `-L`, what linkerd-config says, LINKERD_DOCKER_REGISTRY and
 * values-ha.yaml (`--ha`) make the base; the engine applies the value flags, then `-f`/`--set…`,
 * and validates; `cniEnabled` from the cluster wins over the user's value.
 */

export interface InstallBase {
  /** The CLI version that replaces values.yaml's placeholder. */
  version?: string;
  /** `-L`. */
  linkerdNamespace: string;
  ha?: boolean;
  /** Undefined with `--ignore-cluster`. */
  cluster?: ClusterFacts;
  /** `$LINKERD_DOCKER_REGISTRY`. */
  registry?: string;
}

/** The base the user's flags and overrides apply to. haOverlay touches no field a value flag sets. */
function installBase(src: InstallBase): MulticlusterValues {
  const base = defaults(src.version);
  applyLinkerdNamespace(base, src.linkerdNamespace);
  if (src.cluster) applyClusterFacts(base, src.cluster);
  applyRegistry(base, src.registry ?? '');
  return src.ha ? (mergeValues(base, haOverlay()) as MulticlusterValues) : base;
}

function finish(values: MulticlusterValues, src: InstallBase): MulticlusterValues {
  if (src.cluster?.cniEnabled) values.cniEnabled = true;
  // The chart's defaults list no controllers: every entry is the user's.
  applyRegistryToControllers(values, src.registry ?? '');
  return values;
}

const setFlags = (flags: Readonly<Record<string, boolean | number | string>> = {}): SetFlag[] =>
  Object.entries(flags).map(([name, value]) => ({ name, value }));

export interface InstallValueSources extends InstallBase, OverrideSources {
  /** Value flags the user set, by name (`gateway`, `gateway-port`, …), applied in the chart's order. */
  flags?: Readonly<Record<string, boolean | number | string>>;
}

/** From overrides already read (tests, renders of known values). */
export function composeInstallValues(src: InstallValueSources): MulticlusterValues {
  const { values } = composeChartValues(multiclusterChart, { ...src, base: installBase(src), flags: setFlags(src.flags) });
  return finish(values, src);
}

/** From the command line: `-f` files and `--set-file` paths are read (bounded) by the engine. */
export async function installValuesFromInputs(src: InstallBase, inputs: ChartInputs, reader?: ValuesReader): Promise<MulticlusterValues> {
  const { values } = await composeChartInputs(multiclusterChart, inputs, { base: installBase(src), ...(reader ? { reader } : {}) });
  return finish(values, src);
}
