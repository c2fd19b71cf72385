/**
 * `linkerd uninstall` and `linkerd prune`: the objects the control plane owns (label
 * `linkerd.io/control-plane-ns`), as stubs for `kubectl delete -f -`.
 */
export { uninstall, prune, NOT_CLI_INSTALLED } from './runLifecycle.js';
export type { LifecycleRequest, LifecycleResult } from './runLifecycle.js';
export { uninstallRefusals, uninstallObjects, NOTHING_TO_UNINSTALL } from './uninstall.js';
export { prunableObjects, PRUNABLE_KINDS } from './prune.js';
export { stubOf, stubOfListed, type StubObject } from './stubs.js';
