/**
 * `linkerd check` as a library: checks are data (registry), the runner decides order,
 * concurrency, retries and deadlines, and the report is printed by src/cli/output/check-*.
 */
export {
  runCheck,
  hintBaseUrl,
  VERSIONCHECK_URL,
  DEFAULT_WAIT_MS,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_RETRY_INTERVAL_MS,
  DEFAULT_VERSIONCHECK_TIMEOUT_MS,
} from './runCheck.js';
export type { CheckRequest, CheckReport, CheckEvents } from './runCheck.js';
export type { CheckOptions, VersionCheckOptions } from './context.js';
export { ALL_CHECKS, CORE_REGISTRY, checksFor, modesOf } from './registry.js';
export { CATEGORIES } from './categories.js';
export { CORE_CHECK_FAMILY } from './coreFamily.js';
export type { CoreCheckOptions } from './coreOptions.js';
export { CheckRegistry, MODES, categoryRuns, familyChecks, loadCheckRegistry } from './family.js';
export type { CheckCategory, CheckFamily, CheckFamilyEntry, CheckFamilyOptions } from './family.js';
export { parseSelection, type Selection } from './selection.js';
export { planInstall, type InstallPlan } from './checks/preInstall.js';
export type { CheckDefinition, CheckResult, CheckMode, Severity, ResultStatus, CategoryId, TerminalState } from './types.js';
