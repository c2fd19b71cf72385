import type { CheckFamilyEntry } from '../core/check/family.js';

/**
 * The families whose checks `linkerd check` runs in-process when their extension is installed
 * (a namespace labelled `linkerd.io/extension=<extension>`). Empty until viz and multicluster
 * are built; each adds its entry here, or through the family registry.
 */
export const CHECK_FAMILIES: readonly CheckFamilyEntry[] = [];
