import type { Volume } from 'kubernetes-types/core/v1.js';
import type { Values } from '../../src/core/values/index.js';
import { END_ENTITY_VOLUME, IDENTITY_TOKEN_VOLUME, XTABLES_LOCK_VOLUME, type ProxyPodContext } from './context.js';
import { podinfoVolume, proxyTracingEnabled } from './tracing.js';

/**
 * Volumes the sidecar needs, appended to the pod's own: injection's order (the chart's patch.json), except that
 * the chart's control-plane templates list the identity token before the end-entity volume.
 */
export function proxyVolumes(values: Values, ctx: Pick<ProxyPodContext, 'component'> = {}): Volume[] {
  const v: Volume[] = [];
  if (!values.cniEnabled) v.push({ emptyDir: {}, name: XTABLES_LOCK_VOLUME });
  const endEntity: Volume = { emptyDir: { medium: 'Memory' }, name: END_ENTITY_VOLUME };
  if (!ctx.component) v.push(endEntity);
  if (proxyTracingEnabled(values)) v.push(podinfoVolume());
  if (values.identity.serviceAccountTokenProjection) {
    v.push({
      name: IDENTITY_TOKEN_VOLUME,
      projected: {
        sources: [{ serviceAccountToken: { audience: 'identity.l5d.io', expirationSeconds: 86400, path: 'linkerd-identity-token' } }],
      },
    });
  }
  if (ctx.component) v.push(endEntity);
  return v;
}
