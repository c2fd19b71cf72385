import type { MutatingWebhookConfiguration, ValidatingWebhookConfiguration } from 'kubernetes-types/admissionregistration/v1.js';
import type { Secret } from 'kubernetes-types/core/v1.js';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { find, pinnedWebhookCredentials, render, valuesWith } from '../../core/install/support.js';

const b64 = (s: string) => Buffer.from(s.trim()).toString('base64');

const HOOKS = [
  ['profileValidator', 'linkerd-sp-validator', 'ValidatingWebhookConfiguration'],
  ['policyValidator', 'linkerd-policy-validator', 'ValidatingWebhookConfiguration'],
  ['proxyInjector', 'linkerd-proxy-injector', 'MutatingWebhookConfiguration'],
] as const;

describe('webhook serving Secrets and caBundles', () => {
  it('stores the generated pair in <service>-k8s-tls and uses the certificate as the caBundle', async () => {
    const creds = await pinnedWebhookCredentials();
    const objects = await render();
    for (const [key, service, kind] of HOOKS) {
      const secret = find<Secret>(objects, 'Secret', `${service}-k8s-tls`);
      expect(secret.type).toBe('kubernetes.io/tls');
      expect(secret.data).toEqual({ 'tls.crt': b64(creds[key].certPem), 'tls.key': b64(creds[key].keyPem) });
      const hook = find<ValidatingWebhookConfiguration>(objects, kind, `${service}-webhook-config`).webhooks![0];
      expect(hook.clientConfig.caBundle).toBe(b64(creds[key].certPem));
      expect(hook.clientConfig.service).toEqual({ name: service, namespace: 'linkerd', path: '/' });
      expect(hook.name).toBe(`${service}.linkerd.io`);
      expect(hook.sideEffects).toBe('None');
      expect(hook.admissionReviewVersions).toEqual(['v1', 'v1beta1']);
    }
  });

  it('prefers the certificate and key given in the values, which then needs no generated pair', async () => {
    const values = valuesWith(['proxyInjector.crtPEM=CRT', 'proxyInjector.keyPEM=KEY']);
    const { proxyInjector: _unused, ...others } = await pinnedWebhookCredentials();
    const objects = await render(values, { webhookCredentials: others });
    expect(find<Secret>(objects, 'Secret', 'linkerd-proxy-injector-k8s-tls').data).toEqual({ 'tls.crt': b64('CRT'), 'tls.key': b64('KEY') });
    expect(
      find<MutatingWebhookConfiguration>(objects, 'MutatingWebhookConfiguration', 'linkerd-proxy-injector-webhook-config').webhooks![0].clientConfig.caBundle,
    ).toBe(b64('CRT'));
  });

  it('omits the Secret for an externalSecret and takes the caBundle from the values', async () => {
    const objects = await render(valuesWith(['policyValidator.externalSecret=true', 'policyValidator.caBundle=MYCA']));
    expect(objects.some((o) => o.metadata.name === 'linkerd-policy-validator-k8s-tls')).toBe(false);
    const hook = find<ValidatingWebhookConfiguration>(objects, 'ValidatingWebhookConfiguration', 'linkerd-policy-validator-webhook-config').webhooks![0];
    expect(hook.clientConfig.caBundle).toBe(b64('MYCA'));
  });

  it('leaves the caBundle to cert-manager with injectCaFrom / injectCaFromSecret', async () => {
    const objects = await render(
      valuesWith([
        'proxyInjector.externalSecret=true',
        'proxyInjector.injectCaFrom=linkerd/injector-cert',
        'profileValidator.externalSecret=true',
        'profileValidator.injectCaFromSecret=linkerd/sp-secret',
      ]),
    );
    const injector = find<MutatingWebhookConfiguration>(objects, 'MutatingWebhookConfiguration', 'linkerd-proxy-injector-webhook-config');
    expect(injector.metadata!.annotations).toEqual({ 'cert-manager.io/inject-ca-from': 'linkerd/injector-cert' });
    expect(injector.webhooks![0].clientConfig.caBundle).toBeUndefined();
    const sp = find<ValidatingWebhookConfiguration>(objects, 'ValidatingWebhookConfiguration', 'linkerd-sp-validator-webhook-config');
    expect(sp.metadata!.annotations).toEqual({ 'cert-manager.io/inject-ca-from-secret': 'linkerd/sp-secret' });
  });

  it.each([
    [
      ['proxyInjector.injectCaFrom=a', 'proxyInjector.injectCaFromSecret=b', 'proxyInjector.externalSecret=true'],
      'proxyInjector: injectCaFrom and injectCaFromSecret cannot both be set',
    ],
    [
      ['profileValidator.injectCaFrom=a', 'profileValidator.caBundle=x', 'profileValidator.externalSecret=true'],
      'profileValidator: injectCaFrom or injectCaFromSecret cannot be set if providing a caBundle',
    ],
    [['policyValidator.externalSecret=true'], 'policyValidator: if externalSecret is set, then caBundle, injectCaFrom, or injectCaFromSecret must be set'],
    [['policyValidator.caBundle=x'], 'policyValidator: if caBundle, injectCaFrom, or injectCaFromSecret is set, then externalSecret must be set'],
    [['proxyInjector.crtPEM=x'], 'proxyInjector: crtPEM and keyPEM must be set together'],
  ])('refuses inconsistent webhook TLS values: %j', async (set, message) => {
    await expect(render(valuesWith(set))).rejects.toThrow(new UserError(message));
  });

  it('matches the injector on pods and services at CREATE, with its selectors and timeout', async () => {
    const hook = find<MutatingWebhookConfiguration>(await render(), 'MutatingWebhookConfiguration', 'linkerd-proxy-injector-webhook-config').webhooks![0];
    expect(hook.rules).toEqual([{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods', 'services'], scope: 'Namespaced' }]);
    expect(hook.timeoutSeconds).toBe(10);
    expect(hook.namespaceSelector!.matchExpressions).toContainEqual({
      key: 'kubernetes.io/metadata.name',
      operator: 'NotIn',
      values: ['kube-system', 'cert-manager'],
    });
    expect(hook.objectSelector!.matchExpressions).toContainEqual({ key: 'linkerd.io/control-plane-component', operator: 'DoesNotExist' });
  });

  it('validates ServiceProfiles, policy resources and Gateway API routes on CREATE and UPDATE', async () => {
    const objects = await render();
    const sp = find<ValidatingWebhookConfiguration>(objects, 'ValidatingWebhookConfiguration', 'linkerd-sp-validator-webhook-config').webhooks![0];
    expect(sp.rules).toEqual([
      { operations: ['CREATE', 'UPDATE'], apiGroups: ['linkerd.io'], apiVersions: ['v1alpha1', 'v1alpha2'], resources: ['serviceprofiles'] },
    ]);
    const policy = find<ValidatingWebhookConfiguration>(objects, 'ValidatingWebhookConfiguration', 'linkerd-policy-validator-webhook-config').webhooks![0];
    const rules = policy.rules as Array<{ apiGroups: string[]; resources: string[] }>;
    expect(rules.map((r) => r.apiGroups[0])).toEqual(['policy.linkerd.io', 'gateway.networking.k8s.io']);
    expect(rules[0].resources).toContain('servers');
    expect(rules[1].resources).toEqual(['httproutes', 'grpcroutes', 'tlsroutes', 'tcproutes']);
  });
});
