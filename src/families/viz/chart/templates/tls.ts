import type { Secret } from 'kubernetes-types/core/v1.js';
import { UserError } from '../../../../core/errors.js';
import { b64 } from '../../../../../templates/shared/encoding.js';
import { webhookTlsProblems } from '../../../../../templates/shared/webhookTls.js';
import type { VizValues } from '../values.js';
import type { VizContext, VizTlsKey } from './context.js';
import { createdByAnnotation, namespacedMeta } from './meta.js';

/** The chart's webhook validation for tap or tap-injector, the value path in front of the message. */
export function tlsProblems(key: VizTlsKey, values: VizValues): string[] {
  return webhookTlsProblems(values[key]).map((p) => `${key}: ${p}`);
}

/** The serving certificate and key the Secret holds: the user's, else the generated pair. */
export function servingPair(key: VizTlsKey, values: VizValues, ctx: VizContext): { crt: string; key: string } {
  const tls = values[key];
  if (tls.crtPEM && tls.keyPEM) return { crt: tls.crtPEM, key: tls.keyPEM };
  const generated = ctx.credentials[key];
  if (!generated) throw new UserError(`${key}: no serving certificate: set ${key}.crtPEM and ${key}.keyPEM, or ${key}.externalSecret`);
  return { crt: generated.certPem, key: generated.keyPem };
}

/**
 * The caBundle of the APIService or webhook: the user's `caBundle`, else the serving certificate
 * itself (it is self-signed, so it is its own CA); none when cert-manager injects it.
 */
export function caBundleOf(key: VizTlsKey, values: VizValues, ctx: VizContext): string | undefined {
  const tls = values[key];
  if (tls.injectCaFrom || tls.injectCaFromSecret) return undefined;
  return b64(tls.caBundle || servingPair(key, values, ctx).crt);
}

/** The `kubernetes.io/tls` Secret `name` holding the serving pair of tap or tap-injector. */
export function servingSecret(key: VizTlsKey, name: string, labels: Record<string, string>, values: VizValues, ctx: VizContext): Secret {
  const pair = servingPair(key, values, ctx);
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: namespacedMeta(name, ctx.namespace, labels, createdByAnnotation(values)),
    type: 'kubernetes.io/tls',
    data: { 'tls.crt': b64(pair.crt), 'tls.key': b64(pair.key) },
  };
}
