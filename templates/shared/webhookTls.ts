/*
 * The charts' `linkerd.webhook.validation` partial, shared by the control plane's webhooks and the
 * extensions' (viz tap and tap-injector): how a serving certificate's values may be combined.
 */

/** The TLS values every webhook (and viz's APIService) has. */
export interface WebhookTlsValues {
  externalSecret: boolean;
  crtPEM: string;
  keyPEM: string;
  caBundle: string;
  injectCaFrom: string;
  injectCaFromSecret: string;
}

/** Every rule the values break, in the chart's order, in its words. */
export function webhookTlsProblems(hook: WebhookTlsValues): string[] {
  const problems: string[] = [];
  const injects = Boolean(hook.injectCaFrom || hook.injectCaFromSecret);
  if (hook.injectCaFrom && hook.injectCaFromSecret) problems.push('injectCaFrom and injectCaFromSecret cannot both be set');
  if (injects && hook.caBundle) problems.push('injectCaFrom or injectCaFromSecret cannot be set if providing a caBundle');
  if (hook.externalSecret && !hook.caBundle && !injects) {
    problems.push('if externalSecret is set, then caBundle, injectCaFrom, or injectCaFromSecret must be set');
  }
  if ((injects || hook.caBundle) && !hook.externalSecret) {
    problems.push('if caBundle, injectCaFrom, or injectCaFromSecret is set, then externalSecret must be set');
  }
  if (Boolean(hook.crtPEM) !== Boolean(hook.keyPEM) && !hook.externalSecret) {
    problems.push('crtPEM and keyPEM must be set together');
  }
  return problems;
}

/** Whether a certificate must be generated: none of the user's, and not managed externally. */
export function needsGeneratedCert(hook: WebhookTlsValues): boolean {
  return !hook.externalSecret && !(hook.crtPEM && hook.keyPEM);
}

/** cert-manager's CA-injection annotations, or undefined when neither is asked for. */
export function certManagerAnnotations(hook: WebhookTlsValues): Record<string, string> | undefined {
  const a: Record<string, string> = {};
  if (hook.injectCaFrom) a['cert-manager.io/inject-ca-from'] = hook.injectCaFrom;
  if (hook.injectCaFromSecret) a['cert-manager.io/inject-ca-from-secret'] = hook.injectCaFromSecret;
  return Object.keys(a).length ? a : undefined;
}
