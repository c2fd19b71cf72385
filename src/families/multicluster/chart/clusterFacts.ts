import * as z from 'zod';
import { UserError } from '../../../core/errors.js';
import type { ClusterFacts } from './values.js';

/*
 * What `multicluster install` takes from the cluster's linkerd-config (unless `--ignore-cluster`):
 * the trust domain naming the gateway's identity, the proxy's outbound port, and whether the CNI
 * plugin is in use. Read leniently: a field of another shape is as good as absent.
 */

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
