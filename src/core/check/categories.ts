import { CORE_CHECK_FAMILY } from './coreFamily.js';

/** The core categories in execution order, with the two-digit code that prefixes their checks' ids. */
export const CATEGORIES: ReadonlyArray<{ id: string; code: number }> = CORE_CHECK_FAMILY.categories.map(({ id, code }) => ({ id, code }));

export function isCategoryId(s: string): boolean {
  return CATEGORIES.some((c) => c.id === s);
}
