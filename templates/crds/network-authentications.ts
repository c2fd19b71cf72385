import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { CrdContext } from './crd-context.js';
import { namespacedCrd } from './namespaced-crd.js';
import { described, obj, resource } from './schema.js';
import { networks } from './shared-schemas.js';

/** NetworkAuthentication: clients authenticated by the network they connect from. */
export function networkAuthenticationsCrd(ctx: CrdContext): CustomResourceDefinition {
  const spec = described(
    'The networks that authenticate a client.',
    obj({ networks: described('Client networks; a client in any of them is authenticated.', networks()) }, ['networks']),
  );

  return namespacedCrd(ctx, {
    group: 'policy.linkerd.io',
    names: {
      kind: 'NetworkAuthentication',
      plural: 'networkauthentications',
      singular: 'networkauthentication',
      shortNames: ['netauthn', 'networkauthn'],
    },
    versions: [{ name: 'v1alpha1', served: true, storage: true, schema: { openAPIV3Schema: resource(spec) } }],
  });
}
