import type { PolicyRule } from 'kubernetes-types/rbac/v1.js';

/** One RBAC rule: API groups, resources, verbs (and optionally resource names), in the charts' field order. */
export function rule(apiGroups: string[], resources: string[], verbs: string[], resourceNames?: string[]): PolicyRule {
  return resourceNames ? { apiGroups, resources, verbs, resourceNames } : { apiGroups, resources, verbs };
}
