import * as z from 'zod';
import { UserError } from '../../../core/errors.js';
import type { MulticlusterValues } from './values.js';

/*
 * What `multicluster install` takes from the cluster's linkerd-config (unless `--ignore-cluster`):
 * the trust domain naming the gateway's identity, the proxy's outbound port, and whether the CNI
 * plugin is in use. Read leniently: a field of another shape is as good as absent.
 */

/** What install reads from the cluster's linkerd-config (skipped with `--ignore-cluster`). */
export interface ClusterFacts {
  /** `identityTrustDomain` of the control plane: names the gateway's identity. */
  identityTrustDomain?: string;
  /** `proxy.ports.outbound`: carried into the values, read by no template. */
  proxyOutboundPort?: number;
  /** The CNI plugin is installed: the namespace may be `restricted`. */
  cniEnabled?: boolean;
}

/** Applies what install read from the cluster, as the real command does before the user's overrides. */
export function applyClusterFacts(values: MulticlusterValues, facts: ClusterFacts): void {
  if (facts.identityTrustDomain !== undefined) values.identityTrustDomain = facts.identityTrustDomain;
  if (facts.proxyOutboundPort !== undefined) values.proxyOutboundPort = facts.proxyOutboundPort;
}

/** The user's overrides gain `cniEnabled: true` when CNI was detected (so a user's own value loses to it). */
export function clusterOverrides(facts: ClusterFacts): Partial<MulticlusterValues> {
  return facts.cniEnabled ? { cniEnabled: true } : {};
}

const Config = z.looseObject({
  identityTrustDomain: z.string().optional().catch(undefined),
  cniEnabled: z.boolean().optional().catch(undefined),
  proxy: z
    .looseObject({
      ports: z
        .looseObject({ outbound: z.number().int().min(0).max(65535).optional().catch(undefined) })
        .optional()
        .catch(undefined),
    })
    .optional()
    .catch(undefined),
});

/** From linkerd-config's parsed `values`, or undefined when the ConfigMap was not found. */
export function clusterFactsFrom(linkerdConfigValues: Record<string, unknown> | undefined): ClusterFacts {
  if (!linkerdConfigValues) throw new UserError('you need Linkerd to be installed in order to install multicluster addons');
  const c = Config.parse(linkerdConfigValues);
  const facts: ClusterFacts = {};
  if (c.identityTrustDomain !== undefined) facts.identityTrustDomain = c.identityTrustDomain;
  if (c.proxy?.ports?.outbound !== undefined) facts.proxyOutboundPort = c.proxy.ports.outbound;
  if (c.cniEnabled) facts.cniEnabled = true;
  return facts;
}
