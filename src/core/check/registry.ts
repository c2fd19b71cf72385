import { CATEGORIES, categoriesFor } from './categories.js';
import { IDENTITY_CHECKS, WEBHOOK_CHECKS } from './checks/certificates.js';
import { CNI_CHECKS } from './checks/cni.js';
import { CONFIG_CHECKS, EXISTENCE_CHECKS, LINKERD_CRD_CHECKS } from './checks/controlPlane.js';
import { DATA_PLANE_CHECKS, DATA_PLANE_IDENTITY_CHECKS } from './checks/dataPlane.js';
import { EXTENSION_NAMESPACE_CHECKS, HA_CHECKS } from './checks/extras.js';
import { KUBERNETES_CHECKS } from './checks/kubernetes.js';
import { PRE_INSTALL_CHECKS } from './checks/preInstall.js';
import { CONTROL_PLANE_PROXY_CHECKS, CONTROL_PLANE_VERSION_CHECKS, VERSION_CHECKS } from './checks/versions.js';
import type { CheckDefinition, CheckMode } from './types.js';

const DEFINED: CheckDefinition[] = [
  ...KUBERNETES_CHECKS,
  ...PRE_INSTALL_CHECKS,
  ...LINKERD_CRD_CHECKS,
  ...EXISTENCE_CHECKS,
  ...CONFIG_CHECKS,
  ...CNI_CHECKS,
  ...IDENTITY_CHECKS,
  ...WEBHOOK_CHECKS,
  ...DATA_PLANE_IDENTITY_CHECKS,
  ...VERSION_CHECKS,
  ...CONTROL_PLANE_VERSION_CHECKS,
  ...CONTROL_PLANE_PROXY_CHECKS,
  ...DATA_PLANE_CHECKS,
  ...HA_CHECKS,
  ...EXTENSION_NAMESPACE_CHECKS,
];

const order = new Map(CATEGORIES.map((c, i) => [c.id, i]));

/** Every check, in the real CLI's global order (category order, then the order within a category). */
export const ALL_CHECKS: readonly CheckDefinition[] = DEFINED.map((d, i) => ({ d, i }))
  .sort((a, b) => (order.get(a.d.category) ?? CATEGORIES.length) - (order.get(b.d.category) ?? CATEGORIES.length) || a.i - b.i)
  .map(({ d }) => d);

/** The checks a mode runs, in execution order. */
export function checksFor(mode: CheckMode, o: { cniEnabled?: boolean } = {}): CheckDefinition[] {
  const enabled = categoriesFor(mode, o);
  return ALL_CHECKS.filter((c) => enabled.has(c.category));
}

/** The modes that run a check (for `--list`). */
export function modesOf(check: CheckDefinition): CheckMode[] {
  const modes: CheckMode[] = ['default', 'pre', 'proxy', 'crds'];
  return modes.filter((m) => categoriesFor(m, { cniEnabled: true }).has(check.category));
}
