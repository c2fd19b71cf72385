import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { CrdContext } from './crd-context.js';
import { namespacedCrd } from './namespaced-crd.js';
import { arr, described, obj, resource, str } from './schema.js';
import { namespacedRef } from './shared-schemas.js';

/** MeshTLSAuthentication: clients authenticated by their mTLS identity. */
export function meshTlsAuthenticationsCrd(ctx: CrdContext): CustomResourceDefinition {
  const spec = {
    ...described(
      'The identities that authenticate a client.',
      obj({
        identities: described('Proxy identities; a `*.` prefix matches a whole domain and `*` matches any identity.', arr(str(), { minItems: 1 })),
        identityRefs: described(
          'Objects (e.g. ServiceAccounts) whose identities are accepted; without a name, all of that kind.',
          arr(namespacedRef({ required: ['kind'] }), { minItems: 1 }),
        ),
      }),
    ),
    // Exactly one way of naming identities.
    oneOf: [{ required: ['identities'] }, { required: ['identityRefs'] }],
  };

  return namespacedCrd(ctx, {
    group: 'policy.linkerd.io',
    names: {
      kind: 'MeshTLSAuthentication',
      plural: 'meshtlsauthentications',
      singular: 'meshtlsauthentication',
      shortNames: ['meshtlsauthn'],
    },
    versions: [{ name: 'v1alpha1', served: true, storage: true, schema: { openAPIV3Schema: resource(spec) } }],
  });
}
