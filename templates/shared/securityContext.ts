import type { SecurityContext } from 'kubernetes-types/core/v1.js';

/** An extension's container: unprivileged, read-only root, every capability dropped (viz and multicluster charts). */
export function restrictedSecurityContext(uid: number, gid: number): SecurityContext {
  return {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
    readOnlyRootFilesystem: true,
    runAsNonRoot: true,
    runAsUser: uid,
    runAsGroup: gid,
    seccompProfile: { type: 'RuntimeDefault' },
  };
}
