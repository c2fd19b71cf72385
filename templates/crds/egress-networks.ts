import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { CrdContext } from './crd-context.js';
import { namespacedCrd } from './namespaced-crd.js';
import { described, obj, oneOfStrings, resource } from './schema.js';
import { linkerdConditions, networks } from './shared-schemas.js';

/** EgressNetwork: a set of destinations outside the cluster and what to do with unrouted traffic to them. */
export function egressNetworksCrd(ctx: CrdContext): CustomResourceDefinition {
  const spec = described(
    'The destinations and the default policy for traffic to them.',
    obj(
      {
        trafficPolicy: described('Allow or Deny traffic that no route attached to this network describes.', oneOfStrings(['Allow', 'Deny'])),
        networks: described('The destinations this object covers.', networks()),
      },
      ['trafficPolicy'],
    ),
  );
  const status = described('What the policy controller reports about the network.', obj({ conditions: linkerdConditions() }));

  return namespacedCrd(ctx, {
    group: 'policy.linkerd.io',
    names: {
      categories: ['policy'],
      kind: 'EgressNetwork',
      listKind: 'EgressNetworkList',
      plural: 'egressnetworks',
      singular: 'egressnetwork',
    },
    versions: [
      {
        name: 'v1alpha1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: { openAPIV3Schema: resource(spec, status) },
      },
    ],
  });
}
