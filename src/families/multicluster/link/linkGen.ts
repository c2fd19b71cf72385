import type { Secret } from 'kubernetes-types/core/v1.js';
import * as z from 'zod';
import { UserError } from '../../../core/errors.js';
import { credentialsSecrets, serviceAccountToken } from './credentials.js';
import { gatewayFields } from './gateway.js';
import type { LinkGenOptions, LinkGenReads } from './input.js';
import { type Link, linkResource } from './link.js';
import { remoteKubeconfigYaml } from './kubeconfig.js';
import { type LinkVariant, linkMessages } from './messages.js';

/** The two linkerd-config values link-gen uses; a config without them gives empty strings, as Go's zero values. */
const TargetConfig = z.looseObject({
  identityTrustDomain: z.string().catch(''),
  clusterDomain: z.string().catch(''),
});

/** What link-gen prints, in its order: Secret #1 (`--namespace`), Secret #2 (`-L`), the Link. */
export type LinkGenOutput = [Secret, Secret, Link];

/** Checked before any cluster read, as the real command does. */
export function assertClusterName(options: Pick<LinkGenOptions, 'clusterName'>, variant: LinkVariant = 'link-gen'): void {
  if (!options.clusterName) throw new UserError(linkMessages.noClusterName(variant));
}

/**
 * link-gen's output from what it read of the target: the credentials (a kubeconfig naming the
 * target's API server and the remote-access token) as two Secrets, and the Link the source
 * cluster's service mirror follows. With `--gateway=false` no gateway Service is read and the
 * Link has no gateway fields; `--selector`, `--gateway-addresses` and `--gateway-port` are then
 * ignored, as link-gen ignores them (the deprecated `link` refuses them: see linkOptionProblem).
 */
export function linkGen(reads: LinkGenReads, options: LinkGenOptions, variant: LinkVariant = 'link-gen'): LinkGenOutput {
  assertClusterName(options, variant);
  if (!reads.linkerdConfigValues) throw new UserError(linkMessages.noLinkerd());
  const target = TargetConfig.parse(reads.linkerdConfigValues);
  const token = serviceAccountToken(reads.tokenSecrets, options.serviceAccountName);
  const kubeconfigYaml = remoteKubeconfigYaml({
    kubeconfig: reads.kubeconfig,
    serviceAccountName: options.serviceAccountName,
    token,
    apiServerAddress: options.apiServerAddress,
  });
  const [mirrorSecret, destinationSecret] = credentialsSecrets({
    clusterName: options.clusterName,
    namespace: options.namespace,
    linkerdNamespace: options.linkerdNamespace,
    kubeconfigYaml,
    trustDomain: target.identityTrustDomain,
    clusterDomain: target.clusterDomain,
  });
  let gateway;
  if (options.gateway) {
    if (!reads.gatewayService) throw new UserError(`the gateway Service ${options.gatewayName}.${options.gatewayNamespace} was not read`);
    gateway = gatewayFields(reads.gatewayService, options, variant);
  }
  const link = linkResource({
    clusterName: options.clusterName,
    namespace: options.namespace,
    linkerdNamespace: options.linkerdNamespace,
    clusterDomain: target.clusterDomain,
    gateway,
    selector: options.selector,
    remoteDiscoverySelector: options.remoteDiscoverySelector,
    federatedServiceSelector: options.federatedServiceSelector,
    excludedAnnotations: options.excludedAnnotations,
    excludedLabels: options.excludedLabels,
    cliVersion: options.cliVersion,
  });
  return [mirrorSecret, destinationSecret, link];
}
