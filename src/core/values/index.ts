/**
 * The configuration model: one strict schema for chart values, the release's defaults, Helm-style
 * merging of `-f`/`--set`, the flag table, install validation and the cluster's stored forms.
 */
export { ValuesSchema } from './schema.js';
export type { Values, ValuesInput, DeepPartial } from './schema.js';
export { defaultValues, haOverlay } from './defaults.js';
export {
  mergeValues,
  combineOverlays,
  mergeNonEmpty,
  buildOverrides,
  parseSetArgs,
  typedSetValue,
  overridesHave,
  readValuesFiles,
  parseValuesYaml,
  readLocalValuesFile,
  validateValues,
  formatIssues,
} from './merge.js';
export { validateWithSchema } from './validateValues.js';
export type { OverrideSources, ReadFile, SetKind, ValuesReader, ValuesFile } from './merge.js';
export {
  isReleaseVersion,
  chartFlags,
  flagsOf,
  applyChartFlags,
  firstInvalidFlag,
  invalidFlagValue,
  composeChartValues,
  composeChartInputs,
  assertFlagValues,
} from './chart.js';
export type { ChartInputs, ChartInputOptions } from './chart.js';
export type { Chart, ChartOf, ChartEntry, ChartInfo, ChartTemplates, FlagDeclaration, SetFlag, ValueSources, ComposedValues } from './chart.js';
export type { ValueFlag as ChartValueFlag } from './chart.js';
export { splitSliceArg, asBool, asDuration, asInt, asSlice, asString } from './flagValues.js';
export type { FlagKind, FlagValue } from './flagValues.js';
export { controlPlaneChart, applyFlags, composeValues, deprecationWarnings } from './controlPlaneChart.js';
export type { ControlPlaneTemplates } from './controlPlaneChart.js';
export { crdsChart } from './crdsChart.js';
export type { CrdsTemplates } from './crdsChart.js';
export { CORE_CHARTS } from './charts.js';
export { VALUE_FLAGS, CONTROL_PLANE_FLAG_SETS, valueFlag, registryOverride } from './flags.js';
export type { ControlPlaneFlagSet, ValueFlag, FlagContext } from './flags.js';
export {
  validateInstallValues,
  installValueProblems,
  parseQuantity,
  parsePortRanges,
  parsePortRange,
  isCIDR,
  isValidProxyLogLevel,
  dns1123SubdomainError,
  INBOUND_POLICIES,
} from './validate.js';
export type { PortRange } from './validate.js';
export { isQuantity, milliValue, wholeValue, wholeCPUCores } from './quantity.js';
export { parseGoDuration, formatGoDuration, normalizeGoDuration } from './duration.js';
export { linkerdConfigValues, overridesDiff, parseClusterValues } from './config.js';
export type { ClusterValues } from './config.js';
export { deepClone, deepEqual } from './tree.js';
