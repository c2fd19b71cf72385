import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { CrdContext } from './crd-context.js';
import { namespacedCrd } from './namespaced-crd.js';
import { arr, described, obj, resource } from './schema.js';
import { localTargetRef, namespacedRef } from './shared-schemas.js';

/** AuthorizationPolicy: lets clients that satisfy every listed authentication reach a target. */
export function authorizationPoliciesCrd(ctx: CrdContext): CustomResourceDefinition {
  const spec = described(
    'The target and the authentications clients must satisfy to reach it.',
    obj(
      {
        targetRef: described('The Server, HTTPRoute or Namespace the policy applies to.', localTargetRef()),
        requiredAuthenticationRefs: described('Authentications a client must all satisfy; a missing one disables the policy.', arr(namespacedRef())),
      },
      ['targetRef', 'requiredAuthenticationRefs'],
    ),
  );

  return namespacedCrd(ctx, {
    group: 'policy.linkerd.io',
    names: {
      kind: 'AuthorizationPolicy',
      plural: 'authorizationpolicies',
      singular: 'authorizationpolicy',
      shortNames: ['authzpolicy'],
    },
    versions: [{ name: 'v1alpha1', served: true, storage: true, schema: { openAPIV3Schema: resource(spec) } }],
  });
}
