import { describe, expect, it } from 'vitest';
import { keyMatchesCertificate, parsePrivateKey, verifyChain } from '../../../src/core/pki/index.js';
import { x509 } from '../../../src/core/pki/x509.js';
import { defaults, renderViz, vizCredentials, type VizObject } from '../../../src/families/viz/chart/index.js';
import { composeVizValues, pinnedContext } from './support.js';

const NOW = new Date('2026-03-01T00:00:00Z');
const fromB64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');
const find = (objects: VizObject[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name) as VizObject & Record<string, never>;

async function generatedRender(overlays: object[] = []) {
  const values = composeVizValues(overlays);
  const credentials = await vizCredentials(values, 'linkerd-viz', NOW);
  return { credentials, objects: renderViz(values, { namespace: 'linkerd-viz', credentials }) };
}

describe('linkerd viz install: tap and tap-injector serving certificates', () => {
  it('makes tap a certificate for tap.linkerd-viz.svc that the APIService caBundle verifies, valid for a year', async () => {
    const { objects } = await generatedRender();
    const secret = find(objects, 'Secret', 'tap-k8s-tls') as unknown as { data: Record<string, string> };
    const apiService = find(objects, 'APIService', 'v1alpha1.tap.linkerd.io') as unknown as { spec: { caBundle: string } };
    const cert = new x509.X509Certificate(fromB64(secret.data['tls.crt']));
    const ca = new x509.X509Certificate(fromB64(apiService.spec.caBundle));
    expect(cert.subject).toBe('CN=tap.linkerd-viz.svc');
    expect(cert.getExtension(x509.SubjectAlternativeNameExtension)?.names.toJSON()).toEqual([{ type: 'dns', value: 'tap.linkerd-viz.svc' }]);
    // What the API server does with the caBundle: a Go-style chain verification for the Service's name.
    expect((await verifyChain(cert, [], [ca], NOW, { dnsName: 'tap.linkerd-viz.svc' })).ok).toBe(true);
    expect(await cert.verify({ publicKey: ca.publicKey, signatureOnly: true })).toBe(true);
    expect(cert.notBefore.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(cert.notAfter.toISOString()).toBe('2027-03-01T00:00:00.000Z');
    expect(keyMatchesCertificate(parsePrivateKey(fromB64(secret.data['tls.key']), 'tls.key').keyObject, cert)).toBe(true);
  });

  it('makes tap-injector a certificate for tap-injector.linkerd-viz.svc that the webhook caBundle verifies', async () => {
    const { objects } = await generatedRender();
    const secret = find(objects, 'Secret', 'tap-injector-k8s-tls') as unknown as { data: Record<string, string> };
    const hook = find(objects, 'MutatingWebhookConfiguration', 'linkerd-tap-injector-webhook-config') as unknown as {
      webhooks: { clientConfig: { caBundle: string } }[];
    };
    const cert = new x509.X509Certificate(fromB64(secret.data['tls.crt']));
    const ca = new x509.X509Certificate(fromB64(hook.webhooks[0].clientConfig.caBundle));
    expect(cert.getExtension(x509.SubjectAlternativeNameExtension)?.names.toJSON()).toEqual([{ type: 'dns', value: 'tap-injector.linkerd-viz.svc' }]);
    expect((await verifyChain(cert, [], [ca], NOW, { dnsName: 'tap-injector.linkerd-viz.svc' })).ok).toBe(true);
    expect((await verifyChain(cert, [], [ca], NOW, { dnsName: 'tap.linkerd-viz.svc' })).ok).toBe(false);
  });

  it('generates nothing for a component whose certificate is given or external', async () => {
    const values = composeVizValues([
      { tap: { crtPEM: 'CRT', keyPEM: 'KEY' } },
      { tapInjector: { externalSecret: true, injectCaFrom: 'linkerd-viz/tap-injector' } },
    ]);
    expect(await vizCredentials(values, 'linkerd-viz', NOW)).toEqual({});
    expect(Object.keys(await vizCredentials(defaults(), 'linkerd-viz', NOW)).sort()).toEqual(['tap', 'tapInjector']);
  });

  it("uses the user's certificate for the Secret and as the caBundle", () => {
    const objects = renderViz(composeVizValues([{ tap: { crtPEM: 'CRT\n', keyPEM: 'KEY\n' } }]), pinnedContext());
    const secret = find(objects, 'Secret', 'tap-k8s-tls') as unknown as { data: Record<string, string> };
    expect(secret.data).toEqual({ 'tls.crt': 'Q1JU', 'tls.key': 'S0VZ' });
    expect((find(objects, 'APIService', 'v1alpha1.tap.linkerd.io') as unknown as { spec: { caBundle: string } }).spec.caBundle).toBe('Q1JU');
  });

  it('leaves the caBundle to cert-manager with injectCaFrom / injectCaFromSecret, and renders no Secret', () => {
    const objects = renderViz(
      composeVizValues([
        { tap: { externalSecret: true, injectCaFrom: 'linkerd-viz/tap' } },
        { tapInjector: { externalSecret: true, injectCaFromSecret: 'linkerd-viz/tap-injector-k8s-tls' } },
      ]),
      { namespace: 'linkerd-viz', credentials: {} },
    );
    const apiService = find(objects, 'APIService', 'v1alpha1.tap.linkerd.io') as unknown as VizObject & { spec: Record<string, unknown> };
    const hook = find(objects, 'MutatingWebhookConfiguration', 'linkerd-tap-injector-webhook-config') as unknown as VizObject & {
      webhooks: { clientConfig: Record<string, unknown> }[];
    };
    expect(apiService.metadata.annotations).toEqual({ 'cert-manager.io/inject-ca-from': 'linkerd-viz/tap' });
    expect(apiService.spec).not.toHaveProperty('caBundle');
    expect(hook.metadata.annotations).toEqual({ 'cert-manager.io/inject-ca-from-secret': 'linkerd-viz/tap-injector-k8s-tls' });
    expect(hook.webhooks[0].clientConfig).not.toHaveProperty('caBundle');
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
  });
});
