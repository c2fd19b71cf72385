import { UserError } from '../errors.js';
import { createWebhookCert, generateEcdsaP256Key, type Credentials } from '../pki/index.js';
import type { Values } from '../values/index.js';
import { WEBHOOKS, needsGeneratedCredentials, webhookDnsName, webhookProblems, type WebhookKey } from '../../../templates/control-plane/index.js';

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * Serving certificates for the webhooks that need one generated: self-signed, for
 * `<service>.<ns>.svc`, valid a year from `now` (as the chart's genSelfSignedCert). The keys
 * are ECDSA P-256 rather than Sprig's RSA-2048: the API server and the webhooks accept both,
 * and generating three RSA keys would take most of a second.
 */
export async function webhookCredentials(values: Values, namespace: string, now: Date): Promise<Partial<Record<WebhookKey, Credentials>>> {
  const keys = Object.keys(WEBHOOKS) as WebhookKey[];
  for (const key of keys) {
    const [problem] = webhookProblems(key, values[key]);
    if (problem) throw new UserError(problem);
  }
  const wanted = keys.filter((key) => needsGeneratedCredentials(values[key]));
  const generated = await Promise.all(
    wanted.map(async (key) =>
      createWebhookCert({
        dnsName: webhookDnsName(key, namespace),
        notBefore: now,
        notAfter: new Date(now.getTime() + YEAR_MS),
        keys: await generateEcdsaP256Key(),
      }),
    ),
  );
  return Object.fromEntries(wanted.map((key, i) => [key, generated[i]]));
}
