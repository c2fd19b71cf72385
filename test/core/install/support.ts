import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { renderControlPlane, type ControlPlaneContext, type RenderedObject } from '../../../templates/control-plane/index.js';
import { createWebhookCert, generateEcdsaP256Key, type Credentials } from '../../../src/core/pki/index.js';
import { composeValues, defaultValues, type Values } from '../../../src/core/values/index.js';
import { LINKERD_VERSION } from '../../../src/core/version.js';

/** Shared helpers of the install tests (templates, core and CLI). */

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const CERTS = 'fixtures/certs';

export function fixtureText(name: string): string {
  return readFileSync(`${ROOT}${CERTS}/${name}`, 'utf8');
}

/** The `valid` fixture set as values: anchors, issuer certificate and key. */
export function validIdentityValues(): Values {
  const v = defaultValues();
  v.identityTrustAnchorsPEM = fixtureText('valid-trust-anchors.pem');
  v.identity.issuer.tls.crtPEM = fixtureText('valid-crt.pem');
  v.identity.issuer.tls.keyPEM = fixtureText('valid-key.pem');
  return v;
}

/** Values as `install` would build them from `--set` arguments over the valid identity set. */
export function valuesWith(set: string[] = [], base: Values = validIdentityValues()): Values {
  return composeValues({ base, set }).values;
}

/** The `--ha` values (flag applied like the CLI does). */
export function haValues(): Values {
  return composeValues({ base: validIdentityValues(), flags: [{ name: 'ha', value: true }] }).values;
}

let webhookCreds: Promise<Record<'proxyInjector' | 'profileValidator' | 'policyValidator', Credentials>> | undefined;

/** One set of webhook serving certificates for the whole test file. */
export function pinnedWebhookCredentials() {
  webhookCreds ??= (async () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const make = async (svc: string) =>
      createWebhookCert({
        dnsName: `${svc}.linkerd.svc`,
        notBefore: now,
        notAfter: new Date('2027-01-01T00:00:00Z'),
        keys: await generateEcdsaP256Key(),
      });
    const [proxyInjector, profileValidator, policyValidator] = await Promise.all([
      make('linkerd-proxy-injector'),
      make('linkerd-sp-validator'),
      make('linkerd-policy-validator'),
    ]);
    return { proxyInjector, profileValidator, policyValidator };
  })();
  return webhookCreds;
}

export async function pinnedContext(overrides: Partial<ControlPlaneContext> = {}): Promise<ControlPlaneContext> {
  return {
    namespace: 'linkerd',
    cliVersion: LINKERD_VERSION,
    crdsChartVersion: 'linkerd-crds-2026.9.1',
    webhookCredentials: await pinnedWebhookCredentials(),
    heartbeatSchedule: '1 2 3 4 5',
    ...overrides,
  };
}

export async function render(values: Values = validIdentityValues(), ctx: Partial<ControlPlaneContext> = {}): Promise<RenderedObject[]> {
  return renderControlPlane(values, await pinnedContext(ctx));
}

// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- callers name the kind they expect; the assertions check it
export function find<T = RenderedObject>(objects: readonly RenderedObject[], kind: string, name: string): T {
  const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`no ${kind}/${name} in the render`);
  return o as T;
}

/** The documents of a `---`-separated YAML stream. */
export function parseDocs(text: string): RenderedObject[] {
  return (yaml.loadAll(text) as RenderedObject[]).filter((d) => d !== null && d !== undefined);
}
