import type { CheckFamilyEntry } from '../core/check/family.js';
import { FAMILIES } from './registry.js';

/**
 * The families whose checks `linkerd check` runs in-process when their extension is installed
 * (a namespace labelled `linkerd.io/extension=<extension>`): each family declares its entry in
 * its own `index.ts` (`checks:`); the core family's checks are not an extension's.
 */
export const CHECK_FAMILIES: readonly CheckFamilyEntry[] = FAMILIES.flatMap((f) => (f.checks ? [f.checks] : []));
