import type { MutatingWebhookConfiguration, RuleWithOperations, WebhookClientConfig } from 'kubernetes-types/admissionregistration/v1.js';
import { rule } from '../../../../../templates/shared/rbac.js';
import { certManagerAnnotations } from '../../../../../templates/shared/webhookTls.js';
import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { clusterMeta, clusterRole, clusterRoleBinding, serviceAccount, vizLabels } from './meta.js';
import { caBundleOf, servingSecret } from './tls.js';

/**
 * The tap injector is a mutating webhook on pod creation that adds the tap server's identity to
 * meshed pods' proxies (so they accept tap requests). It reads namespaces for their annotations.
 * Failing open (`Ignore`) by default: a pod created without tap is better than no pod.
 */
/** kubernetes-types 1.30 lost `resources` from RuleWithOperations; the API has it. */
const podsOnCreate: RuleWithOperations & { resources: string[] } = { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] };

export function tapInjectorRbac(values: VizValues, ctx: VizContext) {
  const ti = values.tapInjector;
  const labels = vizLabels(values, { component: 'tap-injector' });
  const objects: object[] = [
    clusterRole('linkerd-tap-injector', labels, [rule([''], ['namespaces'], ['get', 'list', 'watch'])]),
    clusterRoleBinding('linkerd-tap-injector', labels, 'linkerd-tap-injector', 'tap-injector', ctx),
    serviceAccount('tap-injector', values, ctx, labels),
  ];
  if (!ti.externalSecret) {
    objects.push(servingSecret('tapInjector', 'tap-injector-k8s-tls', labels, values, ctx));
  }
  const clientConfig: WebhookClientConfig = {
    service: { name: 'tap-injector', namespace: ctx.namespace, path: '/' },
  };
  const caBundle = caBundleOf('tapInjector', values, ctx);
  if (caBundle !== undefined) clientConfig.caBundle = caBundle;
  const webhook: MutatingWebhookConfiguration = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: clusterMeta('linkerd-tap-injector-webhook-config', labels, certManagerAnnotations(ti)),
    webhooks: [
      {
        name: 'tap-injector.linkerd.io',
        ...(ti.namespaceSelector ? { namespaceSelector: structuredClone(ti.namespaceSelector) } : {}),
        ...(ti.objectSelector ? { objectSelector: structuredClone(ti.objectSelector) } : {}),
        clientConfig,
        failurePolicy: ti.failurePolicy,
        admissionReviewVersions: ['v1', 'v1beta1'],
        reinvocationPolicy: 'IfNeeded',
        rules: [podsOnCreate],
        sideEffects: 'None',
      },
    ],
  };
  objects.push(webhook);
  return objects;
}
