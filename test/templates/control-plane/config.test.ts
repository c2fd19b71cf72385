import yaml from 'js-yaml';
import type { ConfigMap, Secret } from 'kubernetes-types/core/v1.js';
import { describe, expect, it } from 'vitest';
import { defaultValues, mergeValues } from '../../../src/core/values/index.js';
import { find, fixtureText, render, validIdentityValues, valuesWith } from '../../core/install/support.js';

const fromB64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');

describe('linkerd-config, trust roots, issuer and overrides', () => {
  it('linkerd-config holds the values without private keys, identityTrustDomain defaulted to clusterDomain', async () => {
    const cm = find<ConfigMap>(await render(), 'ConfigMap', 'linkerd-config');
    expect(cm.metadata!.labels).toEqual({ 'linkerd.io/control-plane-component': 'controller', 'linkerd.io/control-plane-ns': 'linkerd' });
    expect(cm.data!['linkerd-crds-chart-version']).toBe('linkerd-crds-2026.9.1');
    const values = yaml.load(cm.data!.values) as ReturnType<typeof defaultValues>;
    expect(values.identityTrustDomain).toBe('cluster.local');
    expect(values.identityTrustAnchorsPEM).toBe(fixtureText('valid-trust-anchors.pem'));
    expect(values.identity.issuer.tls.crtPEM).toBe(fixtureText('valid-crt.pem'));
    expect('keyPEM' in values.identity.issuer.tls).toBe(false);
    expect(cm.data!.values).not.toMatch(/PRIVATE KEY/);
  });

  it('linkerd-identity-trust-roots holds the trimmed anchors bundle', async () => {
    const cm = find<ConfigMap>(await render(), 'ConfigMap', 'linkerd-identity-trust-roots');
    expect(cm.data).toEqual({ 'ca-bundle.crt': fixtureText('valid-trust-anchors.pem').trim() });
  });

  it('linkerd-identity-issuer holds crt.pem and key.pem (no type, as the chart renders it)', async () => {
    const secret = find<Secret>(await render(), 'Secret', 'linkerd-identity-issuer');
    expect(secret.type).toBeUndefined();
    expect(fromB64(secret.data!['crt.pem'])).toBe(fixtureText('valid-crt.pem').trim());
    expect(fromB64(secret.data!['key.pem'])).toBe(fixtureText('valid-key.pem').trim());
  });

  it('linkerd-config-overrides holds exactly what differs from the defaults, issuer key included, and rebuilds the values', async () => {
    const values = valuesWith(['controllerLogLevel=debug', 'proxy.logLevel=debug']);
    const secret = find<Secret>(await render(values), 'Secret', 'linkerd-config-overrides');
    expect(secret.metadata!.labels).toEqual({ 'linkerd.io/control-plane-ns': 'linkerd' });
    const diff = yaml.load(fromB64(secret.data!['linkerd-config-overrides'])) as Record<string, unknown>;
    expect(Object.keys(diff).sort()).toEqual(['controllerLogLevel', 'identity', 'identityTrustAnchorsPEM', 'proxy']);
    expect(diff.proxy).toEqual({ logLevel: 'debug' });
    expect(JSON.stringify(diff.identity)).toContain('EC PRIVATE KEY');
    expect(mergeValues(defaultValues(), diff)).toEqual(JSON.parse(JSON.stringify(values)));
  });

  it('writes the overrides with sorted keys, so equal values give byte-equal Secrets', async () => {
    const a = find<Secret>(await render(valuesWith(['proxy.logLevel=debug', 'controllerLogLevel=debug'])), 'Secret', 'linkerd-config-overrides');
    const b = find<Secret>(await render(valuesWith(['controllerLogLevel=debug', 'proxy.logLevel=debug'])), 'Secret', 'linkerd-config-overrides');
    expect(a.data).toEqual(b.data);
    const text = fromB64(a.data!['linkerd-config-overrides']);
    expect(text.indexOf('controllerLogLevel')).toBeLessThan(text.indexOf('identity:'));
  });

  it('refuses a linkerd.io/tls render without issuer credentials, with the chart messages', async () => {
    const values = validIdentityValues();
    values.identity.issuer.tls.keyPEM = '';
    await expect(render(values)).rejects.toThrow('Please provide the identity issue private key');
    values.identity.issuer.tls.crtPEM = '';
    await expect(render(values)).rejects.toThrow('Please provide the identity issuer certificate');
  });
});
