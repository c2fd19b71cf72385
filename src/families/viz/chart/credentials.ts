import { UserError } from '../../../core/errors.js';
import { createWebhookCert, generateEcdsaP256Key, type Credentials } from '../../../core/pki/index.js';
import { needsGeneratedCert } from '../../../../templates/shared/webhookTls.js';
import type { VizTlsKey } from './templates/context.js';
import { tlsProblems } from './templates/tls.js';
import type { VizValues } from './values.js';

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/** The Service each certificate is for: its `<service>.<namespace>.svc` is CN and only DNS SAN. */
const SERVICES: Readonly<Record<VizTlsKey, string>> = { tap: 'tap', tapInjector: 'tap-injector' };

export function vizDnsName(key: VizTlsKey, namespace: string): string {
  return `${SERVICES[key]}.${namespace}.svc`;
}

/**
 * Serving certificates for tap and tap-injector where the values neither carry one nor manage it
 * outside: self-signed, valid a year from `now` (as the chart's genSelfSignedCert). ECDSA P-256 like
 * the control plane's webhooks (the API server accepts it, and it is much faster than RSA-2048).
 * `keys` pins the key pairs (tests); otherwise fresh ones are made.
 */
export async function vizCredentials(
  values: VizValues,
  namespace: string,
  now: Date,
  keys: Partial<Record<VizTlsKey, Awaited<ReturnType<typeof generateEcdsaP256Key>>>> = {},
): Promise<Partial<Record<VizTlsKey, Credentials>>> {
  const wanted = (Object.keys(SERVICES) as VizTlsKey[]).filter((key) => {
    const [problem] = tlsProblems(key, values);
    if (problem) throw new UserError(problem);
    return needsGeneratedCert(values[key]);
  });
  const made = await Promise.all(
    wanted.map(async (key) =>
      createWebhookCert({
        dnsName: vizDnsName(key, namespace),
        notBefore: now,
        notAfter: new Date(now.getTime() + YEAR_MS),
        keys: keys[key] ?? (await generateEcdsaP256Key()),
      }),
    ),
  );
  return Object.fromEntries(wanted.map((key, i) => [key, made[i]]));
}
