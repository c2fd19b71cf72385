import { CORE_CHECK_FAMILY } from './coreFamily.js';
import { CheckRegistry, familyChecks } from './family.js';
import type { CheckDefinition, CheckMode } from './types.js';

/** The core family alone, registered once: a collision inside it fails at import, in every test. */
export const CORE_REGISTRY = new CheckRegistry([CORE_CHECK_FAMILY]);

/** Every core check, in the real CLI's global order (category order, then the order within a category). */
export const ALL_CHECKS: readonly CheckDefinition[] = CORE_REGISTRY.checks;

/** The core checks a mode runs, in execution order. */
export function checksFor(mode: CheckMode, o: { cniEnabled?: boolean } = {}): CheckDefinition[] {
  return familyChecks(CORE_CHECK_FAMILY, mode, {
    mode,
    kube: { asGroup: [] },
    controlPlaneNamespace: 'linkerd',
    cliVersion: '',
    versionCheck: { url: '', timeoutMs: 0 },
    timeoutMs: 0,
    families: { core: { cniEnabled: o.cniEnabled } },
  });
}

/** The modes that run a core check (for `--list`). */
export function modesOf(check: CheckDefinition): CheckMode[] {
  return CORE_REGISTRY.modesOf(check);
}
