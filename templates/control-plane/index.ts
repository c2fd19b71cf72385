import { createHash } from 'node:crypto';
import type { Values } from '../../src/core/values/index.js';
import { configOverrides, linkerdConfig } from './config.js';
import { configRbac } from './config-rbac.js';
import type { ControlPlaneContext } from './context.js';
import { destinationDeployment } from './destination.js';
import { destinationRbac, policyRbac } from './destination-rbac.js';
import { heartbeatCronJob } from './heartbeat.js';
import { heartbeatRbac } from './heartbeat-rbac.js';
import { identityDeployment, identityIssuerSecret, trustRootsConfigMap } from './identity.js';
import { identityRbac } from './identity-rbac.js';
import { controlPlaneNamespace } from './namespace.js';
import { podDisruptionBudget } from './pdb.js';
import { podMonitors } from './podmonitor.js';
import { proxyInjectorDeployment } from './proxy-injector.js';
import { proxyInjectorRbac } from './proxy-injector-rbac.js';
import { podSecurityPolicyObjects } from './psp.js';
import { destinationServices, identityServices, proxyInjectorService } from './services.js';
import { policyValidatorWebhook, profileValidatorWebhook, proxyInjectorWebhook } from './webhooks.js';

export type { ControlPlaneContext, WebhookKey } from './context.js';
export { WEBHOOKS, needsGeneratedCredentials, webhookDnsName, webhookProblems } from './webhooks.js';

/** A Kubernetes object as rendered here: apiVersion, kind and metadata always set. */
export interface RenderedObject {
  apiVersion: string;
  kind: string;
  metadata: { name?: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

/**
 * Like the chart's `checksum/config` (sha256 of a rendered template): a digest of the objects a
 * workload's configuration comes from, so its pods roll when those change.
 */
function checksumOf(objects: readonly object[]): string {
  return createHash('sha256').update(JSON.stringify(objects)).digest('hex');
}

/**
 * Every object of `linkerd install` (linkerd's install_default.golden), in the real CLI's order, followed by the
 * `linkerd-config-overrides` Secret. Pure: same values and context, same objects.
 */
export function renderControlPlane(values: Values, ctx: ControlPlaneContext): RenderedObject[] {
  const destinationConfig = [
    ...destinationRbac(values, ctx),
    ...profileValidatorWebhook(values, ctx),
    ...policyValidatorWebhook(values, ctx),
    ...policyRbac(values, ctx),
  ];
  const injectorConfig = [...proxyInjectorRbac(values, ctx), ...proxyInjectorWebhook(values, ctx)];
  const objects: object[] = [
    controlPlaneNamespace(values, ctx),
    ...identityRbac(values, ctx),
    ...destinationConfig,
    ...heartbeatRbac(values, ctx),
    // The chart renders podmonitor.yaml between heartbeat-rbac.yaml and proxy-injector-rbac.yaml.
    ...podMonitors(values, ctx),
    ...injectorConfig,
    ...podSecurityPolicyObjects(values, ctx),
    linkerdConfig(values, ctx),
    ...configRbac(values, ctx),
    ...identityIssuerSecret(values, ctx),
    ...trustRootsConfigMap(values, ctx),
    ...identityServices(values, ctx),
    ...podDisruptionBudget('linkerd-identity', 'identity', values, ctx),
    identityDeployment(values, ctx),
    ...destinationServices(values, ctx),
    ...podDisruptionBudget('linkerd-dst', 'destination', values, ctx),
    destinationDeployment(values, ctx, checksumOf(destinationConfig)),
    ...heartbeatCronJob(values, ctx),
    proxyInjectorDeployment(values, ctx, checksumOf(injectorConfig)),
    proxyInjectorService(values, ctx),
    ...podDisruptionBudget('linkerd-proxy-injector', 'proxy-injector', values, ctx),
    configOverrides(values, ctx),
  ];
  return objects as RenderedObject[];
}
