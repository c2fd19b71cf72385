import type {
  MutatingWebhookConfiguration,
  RuleWithOperations,
  ValidatingWebhookConfiguration,
  WebhookClientConfig,
} from 'kubernetes-types/admissionregistration/v1.js';
import type { Secret } from 'kubernetes-types/core/v1.js';
import { UserError } from '../../src/core/errors.js';
import type { Values } from '../../src/core/values/index.js';
import type { ControlPlaneContext, WebhookKey } from './context.js';
import { certManagerAnnotations, needsGeneratedCert, webhookTlsProblems } from '../shared/webhookTls.js';
import { type Component, b64, clusterMeta, componentLabels, createdByAnnotation, namespacedMeta } from './metadata.js';

/*
 * The three admission webhooks and their serving Secrets, as the chart's webhook templates make them. For each: a
 * `kubernetes.io/tls` Secret `<service>-k8s-tls` unless `<hook>.externalSecret`, and a webhook
 * configuration whose caBundle is the user's `caBundle`, else the serving certificate itself
 * (self-signed), omitted when cert-manager injects it (`injectCaFrom`/`injectCaFromSecret`).
 */

type WebhookValues = Values['proxyInjector'] | Values['profileValidator'];

/** kubernetes-types 1.30 lost `resources` and `scope` from RuleWithOperations; the API has them. */
type AdmissionRule = RuleWithOperations & { resources: string[]; scope?: string };

interface WebhookSpec {
  key: WebhookKey;
  /** The Service the API server calls, also the certificate's `<service>.<ns>.svc` name. */
  service: string;
  component: Component;
}

export const WEBHOOKS: Readonly<Record<WebhookKey, WebhookSpec>> = {
  profileValidator: { key: 'profileValidator', service: 'linkerd-sp-validator', component: 'destination' },
  policyValidator: { key: 'policyValidator', service: 'linkerd-policy-validator', component: 'destination' },
  proxyInjector: { key: 'proxyInjector', service: 'linkerd-proxy-injector', component: 'proxy-injector' },
};

/** `<service>.<namespace>.svc`: CN and only DNS SAN of a webhook's serving certificate. */
export function webhookDnsName(key: WebhookKey, namespace: string): string {
  return `${WEBHOOKS[key].service}.${namespace}.svc`;
}

/** The chart's `linkerd.webhook.validation`, with the value path in front of each message. */
export function webhookProblems(key: WebhookKey, hook: WebhookValues): string[] {
  return webhookTlsProblems(hook).map((p) => `${key}: ${p}`);
}

/** Whether the render needs generated credentials for this webhook (no certificate of the user's, not external). */
export function needsGeneratedCredentials(hook: WebhookValues): boolean {
  return needsGeneratedCert(hook);
}

/** The serving certificate and key the Secret holds: the user's, else the generated pair. */
function servingPair(key: WebhookKey, values: Values, ctx: ControlPlaneContext): { crt: string; key: string } {
  const hook = values[key];
  if (hook.crtPEM && hook.keyPEM) return { crt: hook.crtPEM, key: hook.keyPEM };
  const generated = ctx.webhookCredentials[key];
  if (!generated) throw new UserError(`${key}: no serving certificate: set ${key}.crtPEM and ${key}.keyPEM, or ${key}.externalSecret`);
  return { crt: generated.certPem, key: generated.keyPem };
}

function validate(key: WebhookKey, values: Values): void {
  const [first] = webhookProblems(key, values[key]);
  if (first) throw new UserError(first);
}

function tlsSecret(key: WebhookKey, values: Values, ctx: ControlPlaneContext): Secret[] {
  if (values[key].externalSecret) return [];
  const spec = WEBHOOKS[key];
  const pair = servingPair(key, values, ctx);
  return [
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: namespacedMeta(`${spec.service}-k8s-tls`, ctx, componentLabels(values, ctx, spec.component), createdByAnnotation(values, ctx)),
      type: 'kubernetes.io/tls',
      data: { 'tls.crt': b64(pair.crt), 'tls.key': b64(pair.key) },
    },
  ];
}

function clientConfig(key: WebhookKey, values: Values, ctx: ControlPlaneContext): WebhookClientConfig {
  const hook = values[key];
  const config: WebhookClientConfig = { service: { name: WEBHOOKS[key].service, namespace: ctx.namespace, path: '/' } };
  if (!hook.injectCaFrom && !hook.injectCaFromSecret) {
    // The serving certificate is self-signed, so it is its own CA.
    config.caBundle = b64(hook.caBundle || servingPair(key, values, ctx).crt);
  }
  return config;
}

const createUpdate = (apiGroups: string[], apiVersions: string[], resources: string[]): AdmissionRule => ({
  operations: ['CREATE', 'UPDATE'],
  apiGroups,
  apiVersions,
  resources,
});

function validatingWebhook(
  key: 'profileValidator' | 'policyValidator',
  values: Values,
  ctx: ControlPlaneContext,
  rules: AdmissionRule[],
): ValidatingWebhookConfiguration {
  const spec = WEBHOOKS[key];
  const hook = values[key];
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: clusterMeta(`${spec.service}-webhook-config`, componentLabels(values, ctx, spec.component), certManagerAnnotations(hook)),
    webhooks: [
      {
        name: `${spec.service}.linkerd.io`,
        namespaceSelector: structuredClone(hook.namespaceSelector),
        clientConfig: clientConfig(key, values, ctx),
        failurePolicy: values.webhookFailurePolicy,
        admissionReviewVersions: ['v1', 'v1beta1'],
        rules,
        sideEffects: 'None',
      },
    ],
  };
}

/** Secret and ValidatingWebhookConfiguration of the ServiceProfile validator. */
export function profileValidatorWebhook(values: Values, ctx: ControlPlaneContext) {
  validate('profileValidator', values);
  return [
    ...tlsSecret('profileValidator', values, ctx),
    validatingWebhook('profileValidator', values, ctx, [createUpdate(['linkerd.io'], ['v1alpha1', 'v1alpha2'], ['serviceprofiles'])]),
  ];
}

/** Secret and ValidatingWebhookConfiguration of the policy validator. */
export function policyValidatorWebhook(values: Values, ctx: ControlPlaneContext) {
  validate('policyValidator', values);
  const policyKinds = [
    'authorizationpolicies',
    'httplocalratelimitpolicies',
    'httproutes',
    'networkauthentications',
    'meshtlsauthentications',
    'serverauthorizations',
    'servers',
    'egressnetworks',
  ];
  return [
    ...tlsSecret('policyValidator', values, ctx),
    validatingWebhook('policyValidator', values, ctx, [
      createUpdate(['policy.linkerd.io'], ['*'], policyKinds),
      createUpdate(['gateway.networking.k8s.io'], ['*'], ['httproutes', 'grpcroutes', 'tlsroutes', 'tcproutes']),
    ]),
  ];
}

/** Secret and MutatingWebhookConfiguration of the proxy injector (pods and services, on CREATE). */
export function proxyInjectorWebhook(values: Values, ctx: ControlPlaneContext) {
  validate('proxyInjector', values);
  const spec = WEBHOOKS.proxyInjector;
  const hook = values.proxyInjector;
  const podsAndServices: AdmissionRule = { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods', 'services'], scope: 'Namespaced' };
  const config: MutatingWebhookConfiguration = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: clusterMeta(`${spec.service}-webhook-config`, componentLabels(values, ctx, spec.component), certManagerAnnotations(hook)),
    webhooks: [
      {
        name: `${spec.service}.linkerd.io`,
        namespaceSelector: structuredClone(hook.namespaceSelector),
        objectSelector: structuredClone(hook.objectSelector),
        clientConfig: clientConfig('proxyInjector', values, ctx),
        failurePolicy: values.webhookFailurePolicy,
        admissionReviewVersions: ['v1', 'v1beta1'],
        rules: [podsAndServices],
        sideEffects: 'None',
        timeoutSeconds: hook.timeoutSeconds,
      },
    ],
  };
  return [...tlsSecret('proxyInjector', values, ctx), config];
}
