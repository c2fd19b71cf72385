import type { CategoryId, CheckMode } from './types.js';

/**
 * Every category in the real CLI's global execution order, with the two-digit code that
 * prefixes its checks' ids (`L5D<code><nn>`). Codes are assigned once and never reused.
 */
export const CATEGORIES: ReadonlyArray<{ id: CategoryId; code: number }> = [
  { id: 'kubernetes-api', code: 10 },
  { id: 'kubernetes-version', code: 11 },
  { id: 'gateway-api-crd', code: 12 },
  { id: 'pre-kubernetes-setup', code: 13 },
  { id: 'linkerd-crd', code: 14 },
  { id: 'linkerd-existence', code: 15 },
  { id: 'linkerd-config', code: 16 },
  { id: 'linkerd-cni-plugin', code: 17 },
  { id: 'linkerd-identity', code: 18 },
  { id: 'linkerd-webhooks-and-apisvc-tls', code: 19 },
  { id: 'linkerd-identity-data-plane', code: 20 },
  { id: 'linkerd-version', code: 21 },
  { id: 'control-plane-version', code: 22 },
  { id: 'linkerd-control-plane-proxy', code: 23 },
  { id: 'linkerd-data-plane', code: 24 },
  // An id the real CLI enables with --proxy but which has no checks of its own.
  { id: 'linkerd-opaque-ports-definition', code: 25 },
  { id: 'linkerd-ha-checks', code: 26 },
  { id: 'linkerd-extension-checks', code: 27 },
];

const ALWAYS: CategoryId[] = ['kubernetes-api', 'kubernetes-version', 'gateway-api-crd', 'linkerd-version'];

const CONTROL_PLANE: CategoryId[] = [
  'linkerd-config',
  'linkerd-existence',
  'linkerd-identity',
  'linkerd-webhooks-and-apisvc-tls',
  'linkerd-control-plane-proxy',
  'linkerd-cni-plugin',
  'linkerd-ha-checks',
];

/** Categories enabled per mode (as linkerd's cli/cmd/check.go enables them); execution order is always CATEGORIES' order. */
export function categoriesFor(mode: CheckMode, o: { cniEnabled?: boolean } = {}): Set<CategoryId> {
  switch (mode) {
    case 'pre':
      return new Set([...ALWAYS, 'pre-kubernetes-setup', ...(o.cniEnabled ? (['linkerd-cni-plugin'] as CategoryId[]) : [])]);
    case 'crds':
      return new Set([...ALWAYS, 'linkerd-crd']);
    case 'proxy':
      return new Set([...ALWAYS, ...CONTROL_PLANE, 'linkerd-data-plane', 'linkerd-identity-data-plane', 'linkerd-opaque-ports-definition']);
    case 'default':
      return new Set([...ALWAYS, ...CONTROL_PLANE, 'control-plane-version', 'linkerd-extension-checks']);
  }
}

export function categoryCode(id: CategoryId): number {
  const c = CATEGORIES.find((x) => x.id === id);
  if (!c) throw new Error(`unknown check category ${id}`);
  return c.code;
}

export function isCategoryId(s: string): s is CategoryId {
  return CATEGORIES.some((c) => c.id === s);
}
