import type { Volume } from 'kubernetes-types/core/v1.js';
import type { Values } from '../../src/core/values/index.js';
import { END_ENTITY_VOLUME, IDENTITY_TOKEN_VOLUME, XTABLES_LOCK_VOLUME } from './context.js';
import { podinfoVolume, proxyTracingEnabled } from './tracing.js';

/** Volumes the sidecar needs, appended to the pod's own in this order (spec §3.6). */
export function proxyVolumes(values: Values): Volume[] {
  const v: Volume[] = [];
  if (!values.cniEnabled) v.push({ emptyDir: {}, name: XTABLES_LOCK_VOLUME });
  v.push({ emptyDir: { medium: 'Memory' }, name: END_ENTITY_VOLUME });
  if (proxyTracingEnabled(values)) v.push(podinfoVolume());
  if (values.identity.serviceAccountTokenProjection) {
    v.push({
      name: IDENTITY_TOKEN_VOLUME,
      projected: {
        sources: [{ serviceAccountToken: { audience: 'identity.l5d.io', expirationSeconds: 86400, path: 'linkerd-identity-token' } }],
      },
    });
  }
  return v;
}
